package dev.gpurent.service;

import dev.gpurent.config.UserText;
import dev.gpurent.cost.InvalidInputException;
import dev.gpurent.store.NoSuchSnapshotException;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The one way a request on the event bus fails: a status (as HTTP would say it) and a message
 * that is always the JSON text of {@code {"error": "...", "fields"?: [{"field", "reason"}]}}.
 * The HTTP edge ({@link HttpErrors}) passes both on unchanged. Error text is for users: no class
 * names, no absolute paths; an unexpected exception is logged here and answered as a plain 500.
 */
public final class Failures {

  private static final Logger LOG = Logger.getLogger(Failures.class.getName());

  private Failures() {}

  /** A failure its consumer chose: the status the requester sees, with a user-facing reason. */
  public static final class Refused extends RuntimeException {
    private final int status;

    public Refused(int status, String message) {
      super(message, null, false, false);
      this.status = status;
    }

    public int status() {
      return status;
    }
  }

  /** Fails {@code msg} with {@code status} and {@code {"error": error}}. */
  public static void fail(Message<?> msg, int status, String error) {
    msg.fail(status, body(error, null).encode());
  }

  /** Fails {@code msg} with 400 and every bad field. */
  public static void invalid(Message<?> msg, List<InvalidInputException.Problem> problems) {
    msg.fail(400, body("invalid input", problems).encode());
  }

  /** Fails {@code msg} with what {@code e} means for the requester (see {@link #status(Throwable)}). */
  public static void fail(Message<?> msg, Throwable e) {
    if (e instanceof InvalidInputException bad) invalid(msg, bad.problems());
    else fail(msg, status(e), text(e));
  }

  /**
   * The status a failure carries: its own for {@link Refused} and bus failures, 400 for bad
   * input, 404 for an unknown snapshot, else 500 (and it is logged: something is wrong here).
   */
  public static int status(Throwable e) {
    if (e instanceof Refused r) return r.status();
    if (e instanceof ReplyException re) return re.failureType() == ReplyFailure.RECIPIENT_FAILURE ? re.failureCode() : 503;
    if (e instanceof InvalidInputException || e instanceof IllegalArgumentException) return 400;
    if (e instanceof NoSuchSnapshotException) return 404;
    if (e instanceof dev.gpurent.store.StoreUnavailableException) return 503;
    return 500;
  }

  /** A failure's user-facing text; for an unexpected one, a generic sentence (the detail goes to the log). */
  public static String text(Throwable e) {
    int status = status(e);
    if (status >= 500 && !(e instanceof Refused) && !(e instanceof dev.gpurent.store.StoreUnavailableException)) {
      LOG.log(Level.WARNING, "internal error", e);
      return "internal error; the server log has the details";
    }
    return UserText.withoutPaths(e.getMessage() == null ? "failed" : e.getMessage());
  }

  /** {@code {"error": error, "fields": [...]}}; fields left out when null or empty. */
  /** The key of a field problem's neutral message in a bus failure's body; the HTTP edge renders and drops it. */
  public static final String MESSAGE = "message";

  /** As {@link #body(String, List)}, the error said in English and kept as its message for the HTTP edge to say in the client's language. */
  public static JsonObject body(dev.gpurent.text.Message error, List<InvalidInputException.Problem> fields) {
    return body(dev.gpurent.text.Localizer.en(error), fields).put(MESSAGE, dev.gpurent.text.Localizer.neutral(error));
  }

  public static JsonObject body(String error, List<InvalidInputException.Problem> fields) {
    JsonObject out = new JsonObject().put("error", UserText.withoutPaths(error));
    if (fields != null && !fields.isEmpty()) {
      JsonArray list = new JsonArray();
      fields.forEach(p -> {
        JsonObject one = new JsonObject().put("field", p.field()).put("reason", UserText.withoutPaths(p.reason()));
        // the reason in its neutral form too, for the HTTP edge to say in the client's language (HttpErrors)
        if (p.message() != null) one.put(MESSAGE, dev.gpurent.text.Localizer.neutral(p.message()));
        list.add(one);
      });
      out.put("fields", list);
    }
    return out;
  }

  /**
   * The body of a bus failure as the requester should see it: the consumer's JSON; for failures
   * of the bus itself (no consumer, no reply in time) a sentence that names no address.
   */
  public static JsonObject bodyOf(Throwable e) {
    if (e instanceof ReplyException re && re.failureType() != ReplyFailure.RECIPIENT_FAILURE) {
      return body(re.failureType() == ReplyFailure.TIMEOUT ? "the service is busy: no answer in time; try again shortly"
          : "that part of the service is not running", null);
    }
    String m = e.getMessage();
    if (e instanceof ReplyException && m != null && m.startsWith("{")) {
      try {
        JsonObject j = new JsonObject(m);
        if (j.getValue("error") instanceof String) return j;
      } catch (DecodeException notJson) {
        // a consumer outside this convention: its text below
      }
    }
    return body(e instanceof ReplyException ? (m == null ? "failed" : m) : text(e), null);
  }
}
