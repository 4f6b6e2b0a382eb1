package dev.gpurent.store;

import java.time.Instant;

/**
 * One row of a scenario's alert delivery log: an event claimed for delivery (its key is UNIQUE
 * across the cluster, so one node delivers it) and how its delivery went.
 *
 * @param rule      the rule's place in the scenario's {@code alerts}
 * @param when      the rule's kind ({@code winnerChanged}, ...)
 * @param channel   the webhook platform ({@code feishu}, ...); never its URL or secret
 * @param status    {@code pending} (being delivered), {@code delivered} or {@code failed}
 * @param attempts  tries made so far
 * @param lastError why the last try failed, or null
 * @param eventJson the event as the plain JSON webhook receives it
 */
public record AlertDelivery(String key, String scenario, int rule, String when, String channel, String status, int attempts,
                            String lastError, Instant createdAt, Instant updatedAt, String eventJson) {

  public static final String PENDING = "pending", DELIVERED = "delivered", FAILED = "failed";
}
