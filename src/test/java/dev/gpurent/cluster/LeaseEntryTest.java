package dev.gpurent.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.map.ExtendedMapEntry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The lease's one atomic step, on an entry as Hazelcast hands it over: take when free, renew when held, refuse others. */
class LeaseEntryTest {

  /** A map entry that records the time to live it was given. */
  static final class Entry implements ExtendedMapEntry<String, String> {
    String value;
    long ttlMs = -1;

    Entry(String value) {
      this.value = value;
    }

    @Override
    public String getKey() {
      return "runpod";
    }

    @Override
    public String getValue() {
      return value;
    }

    @Override
    public String setValue(String v) {
      String old = value;
      value = v;
      ttlMs = -1;
      return old;
    }

    @Override
    public String setValue(String v, long ttl, TimeUnit unit) {
      String old = value;
      value = v;
      ttlMs = unit.toMillis(ttl);
      return old;
    }

    @Override
    public String setValueWithoutChangingExpiryTime(String v) {
      String old = value;
      value = v;
      return old;
    }
  }

  @Test
  void a_free_lease_is_taken_with_its_time_to_live() {
    Entry e = new Entry(null);
    assertTrue(new LeaseEntry("node-a/1", 15_000).process(e));
    assertEquals("node-a/1", e.value);
    assertEquals(15_000, e.ttlMs);
  }

  @Test
  void the_holder_renews_and_another_node_is_refused() {
    Entry e = new Entry("node-a/1");
    assertFalse(new LeaseEntry("node-b/2", 15_000).process(e));
    assertEquals("node-a/1", e.value);
    assertEquals(-1, e.ttlMs, "a refusal leaves the holder's time to live alone");
    assertTrue(new LeaseEntry("node-a/1", 15_000).process(e));
    assertEquals(15_000, e.ttlMs);
  }

  @Test
  void only_the_holder_gives_a_lease_back() {
    Entry e = new Entry("node-a/1");
    assertFalse(new LeaseEntry("node-b/2", 0).process(e));
    assertEquals("node-a/1", e.value);
    assertTrue(new LeaseEntry("node-a/1", 0).process(e));
    assertNull(e.value);
  }
}
