package dev.gpurent.service.http;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.time.Instant;
import java.util.Optional;

/**
 * Memory pressure as {@code /health} reports it. Two signs: an {@link OutOfMemoryError} thrown in
 * a handler of this Vert.x (kept until a restart: after one, any thread may have lost work
 * half-done), and the heap still in use after the last collection, summed over the heap pools'
 * collection usage ({@link MemoryPoolMXBean#getCollectionUsage}), over {@code health.heapAfterGc}
 * of the maximum. What is in use after a collection is what the service holds; the heap before
 * one says nothing.
 */
final class MemoryWatch {

  private final double limit;
  private volatile String outOfMemory;

  /** @param limit the share of the maximum heap (0-1] past which memory is under pressure */
  MemoryWatch(double limit) {
    this.limit = limit;
  }

  /** Keeps an OutOfMemoryError thrown in any handler of {@code vertx}; the handler there before still runs. */
  MemoryWatch watch(Vertx vertx) {
    Handler<Throwable> before = vertx.exceptionHandler();
    vertx.exceptionHandler(e -> {
      seen(e);
      if (before != null) before.handle(e);
    });
    return this;
  }

  /** Records {@code e} if it is, or was caused by, an OutOfMemoryError. */
  void seen(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof OutOfMemoryError oom) {
        outOfMemory = "an OutOfMemoryError (" + oom.getMessage() + ") at " + Instant.now() + " in " + Thread.currentThread().getName()
            + ": restart the service";
        return;
      }
    }
  }

  /** Why memory is short, if it is: an OutOfMemoryError seen (critical), or the heap after GC past the limit. */
  Optional<Pressure> pressure() {
    String oom = outOfMemory;
    if (oom != null) return Optional.of(new Pressure(true, oom));
    long used = heapAfterGc();
    long max = Runtime.getRuntime().maxMemory();
    if (max <= 0 || used <= limit * max) return Optional.empty();
    return Optional.of(new Pressure(false, "the heap after the last collection is " + mb(used) + " of " + mb(max)
        + ", over health.heapAfterGc " + limit + " (" + mb((long) (limit * max)) + ")"));
  }

  /** What the heap held after the last collection, and its maximum, for a report that is fine. */
  String state() {
    return "heap after the last collection " + mb(heapAfterGc()) + " of " + mb(Runtime.getRuntime().maxMemory());
  }

  /**
   * What memory lacks.
   *
   * @param critical an OutOfMemoryError was seen: the service may no longer answer
   */
  record Pressure(boolean critical, String detail) {}

  private static long heapAfterGc() {
    long used = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() != MemoryType.HEAP || !pool.isCollectionUsageThresholdSupported()) continue;
      MemoryUsage after = pool.getCollectionUsage();
      if (after != null) used += after.getUsed();
    }
    return used;
  }

  private static String mb(long bytes) {
    return (bytes >> 20) + " MiB";
  }
}
