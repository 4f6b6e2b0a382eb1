package dev.gpurent.cost;

import dev.gpurent.quote.Money;
import java.util.Optional;

/**
 * A one-time move of data into the chosen vendor (guide 6.2), spread over the horizon.
 *
 * @param gb                 data to move
 * @param sourceEgressPerGb  what the source charges per GB to send it out
 * @param fromVendor         vendor the data sits at now, if any: moving to it costs nothing
 */
public record Migration(double gb, Money sourceEgressPerGb, Optional<String> fromVendor) {}
