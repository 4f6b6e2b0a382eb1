package dev.gpurent.service;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.LocalMap;
import io.vertx.core.shareddata.Shareable;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * How late the calling verticle's event loop runs a timer ({@code gpurent.eventloop.delay}, tag
 * {@code loop}): every {@value #PERIOD_MS} ms, the time past the due moment. A loop busy with
 * a long task shows as a delay here long before requests time out.
 *
 * <p>Each loop also leaves its state in this Vert.x's local map {@value #MAP} for {@code /health}
 * ({@link #worst}): when its next timer is due and the worst delay of the last second or two, so
 * that a loop blocked right now shows as late although its timer has not fired.
 */
public final class LoopDelay {

  static final long PERIOD_MS = 100;
  static final String MAP = "gpurent.loop.delay";
  private static final int WINDOW_TICKS = 10;

  private LoopDelay() {}

  /** One loop as the map keeps it: its deployment (to skip loops of undeployed verticles), when it is next due, its recent worst. */
  record State(String loop, String deployment, long dueNanos, long recentNanos) implements Shareable {}

  /** Starts measuring the loop of the verticle that calls it; stops with the verticle (its timer is cancelled on undeploy). */
  public static void watch(Vertx vertx, MeterRegistry registry, String loop) {
    Timer delay = Timer.builder("gpurent.eventloop.delay").description("how late a timer fires on this event loop")
        .tag("loop", loop).publishPercentiles(0.5, 0.99).register(registry);
    String deployment = vertx.getOrCreateContext().deploymentID();
    LocalMap<String, State> states = vertx.sharedData().getLocalMap(MAP);
    String key = loop + " " + deployment;
    long[] due = {System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PERIOD_MS)};
    long[] window = new long[3];  // the worst of this window, of the one before, ticks in this window
    states.put(key, new State(loop, deployment, due[0], 0));
    vertx.setPeriodic(PERIOD_MS, id -> {
      long now = System.nanoTime();
      long late = Math.max(0, now - due[0]);
      delay.record(late, TimeUnit.NANOSECONDS);
      window[0] = Math.max(window[0], late);
      if (++window[2] == WINDOW_TICKS) {
        window[1] = window[0];
        window[0] = 0;
        window[2] = 0;
      }
      due[0] = now + TimeUnit.MILLISECONDS.toNanos(PERIOD_MS);
      states.put(key, new State(loop, deployment, due[0], Math.max(window[0], window[1])));
    });
  }

  /** The latest loop of this Vert.x's deployed verticles now, in nanoseconds, with its name; null when none is watched. */
  public static Map.Entry<String, Long> worst(Vertx vertx) {
    LocalMap<String, State> states = vertx.sharedData().getLocalMap(MAP);
    long now = System.nanoTime();
    Map.Entry<String, Long> worst = null;
    for (Map.Entry<String, State> e : states.entrySet()) {
      State s = e.getValue();
      if (!vertx.deploymentIDs().contains(s.deployment())) {
        states.remove(e.getKey(), s);
        continue;
      }
      long late = Math.max(s.recentNanos(), now - s.dueNanos());
      if (worst == null || late > worst.getValue()) worst = Map.entry(s.loop(), late);
    }
    return worst;
  }
}
