package dev.gpurent.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Ownership by rendezvous hashing: every node agrees, the work spreads, and a member leaving moves only its own scenarios. */
class RendezvousOwnersTest {

  static final List<String> MEMBERS = List.of("node-a", "node-b", "node-c");

  static List<String> scenarios(int n) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < n; i++) ids.add(java.util.UUID.nameUUIDFromBytes(("scenario " + i).getBytes()).toString());
    return ids;
  }

  @Test
  void the_owner_does_not_depend_on_the_order_members_are_listed_in() {
    for (String id : scenarios(200)) {
      assertEquals(RendezvousOwners.owner(id, MEMBERS), RendezvousOwners.owner(id, List.of("node-c", "node-a", "node-b")));
    }
  }

  @Test
  void three_members_share_a_thousand_scenarios_about_evenly() {
    Map<String, Integer> share = new HashMap<>();
    for (String id : scenarios(1000)) share.merge(RendezvousOwners.owner(id, MEMBERS), 1, Integer::sum);
    assertEquals(MEMBERS.size(), share.size());
    // an even share is 333; a fair hash keeps each within a few standard deviations (about 15)
    for (int n : share.values()) assertTrue(n > 270 && n < 400, share.toString());
  }

  @Test
  void a_member_leaving_moves_its_scenarios_and_no_others() {
    List<String> survivors = List.of("node-a", "node-c");
    int moved = 0;
    for (String id : scenarios(1000)) {
      String before = RendezvousOwners.owner(id, MEMBERS);
      String after = RendezvousOwners.owner(id, survivors);
      if (!before.equals("node-b")) assertEquals(before, after, id);
      else moved++;
      assertTrue(survivors.contains(after));
    }
    assertTrue(moved > 270, "node-b owned " + moved);
  }

  /** The weight by its definition: FNV-1a over the joined string's UTF-8 bytes, then the mix. */
  static long byDefinition(String member, String scenario) {
    long h = 0xcbf29ce484222325L;
    for (byte b : (member + "\u0000" + scenario).getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return h;
  }

  @Test
  void the_weight_is_fnv_of_the_joined_utf8_bytes_for_ascii_and_other_ids() {
    List<String> ids = new ArrayList<>(scenarios(50));
    ids.addAll(List.of("", "团队-小", "naïve-ü", "a\u00ffb", "emoji-\ud83d\ude80-x"));
    for (String m : List.of("node-a", "节点-b", "f3c1e2a0-0000-4000-8000-000000000001")) {
      for (String id : ids) assertEquals(byDefinition(m, id), RendezvousOwners.weight(m, id), m + " / " + id);
    }
    // a pinned value: ownership must not move between versions of gpurent in one cluster
    assertEquals(8912605089756361026L, RendezvousOwners.weight("node-a", "s1"));
  }

  @Test
  void no_members_no_owner() {
    assertEquals(null, RendezvousOwners.owner("x", List.of()));
  }
}
