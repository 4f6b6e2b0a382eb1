package dev.gpurent.service.live;

import dev.gpurent.text.Lang;
import io.vertx.core.buffer.Buffer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * The latest ranking message of every live scenario, as the RankingVerticle published it, kept
 * on the HTTP event loop as text (for dashboards) and, once it is first asked for, as the REST
 * body in bytes and gzipped bytes (for {@code GET /api/scenarios/{id}/ranking}, the same shape as
 * {@code POST /api/rank}: the dashboards' envelope around it is cut off): serving a cached ranking is a map
 * lookup and a write, with no event-bus round trip and no re-encoding, and a change costs nothing
 * for scenarios nobody fetches over REST. Used on one event loop only.
 */
public final class LiveRankings {

  /**
   * One scenario's latest update, as published; its REST body per language (rendered by the
   * update, then gzipped) is made on the first request for each language.
   */
  public static final class Latest {
    private final LiveRankingUpdate update;
    private final Map<Lang, Buffer> bytes = new EnumMap<>(Lang.class);
    private final Map<Lang, Buffer> gzipped = new EnumMap<>(Lang.class);

    Latest(LiveRankingUpdate update) {
      this.update = update;
    }

    /** The update as published. */
    public LiveRankingUpdate published() {
      return update;
    }

    /** 200 for a ranking; a failure's status for a ranking that failed (its body then says why). */
    public int status() {
      return update.status();
    }

    /** The REST body in {@code lang}: the ranking alone, as POST /api/rank answers it; a failure's body as it is. */
    public Buffer bytes(Lang lang) {
      return bytes.computeIfAbsent(lang, l -> Buffer.buffer(update.ranking(l)));
    }

    /** Compressed once per change and language (an 11 KB ranking becomes about 2 KB): what polling dashboards fetch over a network. */
    public Buffer gzipped(Lang lang) {
      return gzipped.computeIfAbsent(lang, l -> Buffer.buffer(gzip(update.ranking(l))));
    }
  }

  private final Map<String, Latest> latest = new HashMap<>();

  public void put(String scenario, LiveRankingUpdate update) {
    latest.put(scenario, new Latest(update));
  }

  public void remove(String scenario) {
    latest.remove(scenario);
  }

  /** The scenario's latest message, or null when none has been published here (unknown, or not ranked here). */
  public Latest get(String scenario) {
    return latest.get(scenario);
  }

  static byte[] gzip(String text) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(text.length() / 4);
    // level 1: a ranking is compressed on the event loop, and the fastest level already gets most of the gain
    try (GZIPOutputStream gz = new GZIPOutputStream(out) { { def.setLevel(Deflater.BEST_SPEED); } }) {
      gz.write(text.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
