package dev.gpurent.adapter;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.time.Instant;

/**
 * Fetch, then parse on a worker: how every adapter that reads one payload per fetch reads it. A
 * GET source is downloaded to a file (a URL streams to a temporary file, so that a payload of
 * hundreds of MB is never held in memory; a file source is read where it is) and a temporary file
 * deleted whatever the parse gave; an API that answers a POST (GraphQL, a search) gives one small
 * body, read in memory, so that its request and timeout start with the fetch. The payload is
 * parsed on a worker thread, so that the event loop never waits for a parse, and on any free
 * worker (unordered): the vendors of one quote pipeline share its context, whose ordered tasks run
 * one at a time, so each vendor's parse queued behind the others' (up to 3 s behind GCP's catalog
 * in bench/faults.sh, counted against the vendor's timeout). As a {@link VendorAdapter} it parses
 * with one kind's {@link PayloadFormat}.
 */
final class FetchAndParse implements VendorAdapter {

  /** What to make of a payload; runs on a worker thread. */
  @FunctionalInterface
  interface Parse<T> {
    T apply(Payload payload) throws Exception;
  }

  private final Vertx vertx;
  private final PayloadSource source;
  private final Buffer postBody;
  private final PayloadFormat format;
  private final VendorDefinition def;
  private final GpuCatalog catalog;

  FetchAndParse(Vertx vertx, PayloadSource source, Buffer postBody, PayloadFormat format, VendorDefinition def,
                GpuCatalog catalog) {
    this.vertx = vertx;
    this.source = source;
    this.postBody = postBody;
    this.format = format;
    this.def = def;
    this.catalog = catalog;
  }

  @Override
  public Future<VendorQuotes> fetch() {
    return fetch(vertx, source, postBody, p -> format.parse(p, def, catalog, Instant.now()));
  }

  /**
   * Reads {@code source} (an http source with a POST of {@code postBody} when that is not null)
   * and gives {@code parse}'s result, computed on a worker thread.
   */
  static <T> Future<T> fetch(Vertx vertx, PayloadSource source, Buffer postBody, Parse<T> parse) {
    if (postBody != null && source.isHttp()) {
      return source.fetchPost(postBody).compose(body -> vertx.executeBlocking(() -> parse.apply(Payload.of(body, source.describe())), false));
    }
    return source.download().compose(d -> vertx.executeBlocking(() -> parse.apply(Payload.of(d.file(), source.describe())), false)
        .eventually(() -> d.temporary() ? vertx.fileSystem().delete(d.file().toString()) : Future.succeededFuture()));
  }
}
