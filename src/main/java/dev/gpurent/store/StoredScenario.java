package dev.gpurent.store;

import java.time.Instant;

/**
 * A live scenario as stored: its id, the client that registered it (for the per-client cap), when,
 * and the registration body verbatim as JSON text (fields other parts of gpurent read, such as
 * {@code lang} and {@code alerts}, survive a restart with it).
 */
public record StoredScenario(String id, String client, Instant created, String body) {}
