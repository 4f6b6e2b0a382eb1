package dev.gpurent.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a SQLite store says of itself in {@link SnapshotStore#failing()}: nothing when sound, what
 * {@code PRAGMA quick_check} finds in a file damaged before it was opened (the store opens all the
 * same, and serves what it can).
 */
class StoreIntegrityTest {

  static final Instant T1 = Instant.parse("2026-03-01T02:30:00Z");

  Vertx vertx = Vertx.vertx();
  @TempDir Path tmp;

  @AfterEach
  void close() throws Exception {
    await(vertx.close());
  }

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  @Test
  void a_page_damaged_before_the_open_is_named_by_quick_check() throws Exception {
    StoreSettings settings = StoreSettings.sqlite(tmp.resolve("gpurent.db"));
    SnapshotStore store = await(SnapshotStore.open(vertx, settings));
    assertEquals(Optional.empty(), store.failing());
    for (int i = 0; i < 3; i++) await(store.write("2026-03-0" + (i + 1), RealBooks.book(T1.plusSeconds(86_400L * i)), T1.plusSeconds(86_400L * i)));
    await(store.close());

    byte[] bytes = Files.readAllBytes(settings.path());
    int pages = bytes.length / 4096;
    assertTrue(pages > 16, "three snapshots of RunPod's and Lambda's quotes span many pages: " + pages);
    int page = RealBooks.rowPage(bytes);
    java.util.Arrays.fill(bytes, page * 4096, (page + 1) * 4096, (byte) 0x5a);
    Files.write(settings.path(), bytes);

    store = await(SnapshotStore.open(vertx, settings));
    String failing = store.failing().orElseThrow();
    assertTrue(failing.startsWith("the store failed its integrity check at start (*** in database main ***"), failing);
    assertEquals(3, await(store.list(10, null)).size(), "the snapshots' own rows are whole");
    await(store.close());
  }
}
