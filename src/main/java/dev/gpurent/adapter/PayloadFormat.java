package dev.gpurent.adapter;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.VendorQuotes;
import java.time.Instant;

/**
 * A vendor price format, in the shape of vertx-config's ConfigProcessor: what one payload gives.
 * Pure: no Vert.x, no network, no clock; quotes are observed at {@code fetchedAt} and cite
 * {@code <kind>:<payload origin>}. A row it cannot price is rejected with its reason; a payload
 * that is not of this format at all throws IllegalArgumentException, and the vendor keeps its
 * last good quotes. A {@link FormatFactory} makes the kind's adapter of it.
 */
@FunctionalInterface
public interface PayloadFormat {

  VendorQuotes parse(Payload payload, VendorDefinition def, GpuCatalog catalog, Instant fetchedAt);
}
