package dev.gpurent.adapter;

import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.Future;

/**
 * One vendor's price source, made by a {@link VendorAdapterFactory} from that vendor's YAML.
 *
 * <p>{@link #fetch()} reads the source once and returns every quote it accepts, with the rows
 * it rejected and why. It must not block the event loop (use the WebClient, the async file
 * system, or executeBlocking for heavy parsing). A failed future means the source could not be
 * read or parsed at all; the caller then keeps the vendor's last good quotes.
 */
public interface VendorAdapter {

  Future<VendorQuotes> fetch();
}
