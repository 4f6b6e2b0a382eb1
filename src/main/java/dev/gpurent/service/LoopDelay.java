package dev.gpurent.service;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Vertx;
import java.util.concurrent.TimeUnit;

/**
 * How late the calling verticle's event loop runs a timer ({@code gpurent.eventloop.delay}, tag
 * {@code loop}): every {@value #PERIOD_MS} ms, the time past the due moment. A loop busy with
 * a long task shows as a delay here long before requests time out.
 */
final class LoopDelay {

  static final long PERIOD_MS = 100;

  private LoopDelay() {}

  /** Starts measuring the loop of the verticle that calls it; stops with the verticle (its timer is cancelled on undeploy). */
  static void watch(Vertx vertx, MeterRegistry registry, String loop) {
    Timer delay = Timer.builder("gpurent.eventloop.delay").description("how late a timer fires on this event loop")
        .tag("loop", loop).publishPercentiles(0.5, 0.99).register(registry);
    long[] due = {System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PERIOD_MS)};
    vertx.setPeriodic(PERIOD_MS, id -> {
      long now = System.nanoTime();
      delay.record(Math.max(0, now - due[0]), TimeUnit.NANOSECONDS);
      due[0] = now + TimeUnit.MILLISECONDS.toNanos(PERIOD_MS);
    });
  }
}
