package dev.gpurent.alert;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.gpurent.config.WireNames;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The webhook platforms an alert can go to, each building its request body from its own
 * documentation and judging its own answer. Bodies are nested maps (encoded as JSON by the
 * caller); pure, no Vert.x. Every platform's text message is used: an alert is one sentence.
 */
public enum Channel {

  /**
   * Feishu / Lark custom bot ("自定义机器人使用指南",
   * https://open.larkoffice.com/document/ukTMukTMukTM/ucTM5YjL3ETO24yNxkjN): POST
   * {@code {"msg_type":"text","content":{"text":...}}}, with {@code timestamp} (seconds, as text)
   * and {@code sign} first when the bot checks signatures. Success: {@code {"code":0,"msg":"success"}};
   * 11232 is its rate limit ("限流"), tried again; 9499 (bad request) and 19021 (bad signature) are not.
   */
  FEISHU(true) {
    @Override
    public Map<String, Object> body(String text, Map<String, Object> event, Instant now, Optional<String> secret) {
      Map<String, Object> m = new LinkedHashMap<>();
      secret.ifPresent(s -> {
        m.put("timestamp", Long.toString(now.getEpochSecond()));
        m.put("sign", Signatures.feishu(now.getEpochSecond(), s));
      });
      m.put("msg_type", "text");
      m.put("content", Map.of("text", text));
      return m;
    }

    @Override
    public Verdict verdict(int status, String body) {
      return platform(status, body, "code", 11232);
    }
  },

  /**
   * DingTalk custom robot (钉钉开放平台 自定义机器人接入 and 安全设置 / 加签, as mirrored at
   * https://apifox.com/apidoc/docs-site/467052/doc-3550006): POST
   * {@code {"msgtype":"text","text":{"content":...}}}; a signed robot takes
   * {@code &timestamp=<ms>&sign=<url-encoded signature>} on its URL. Success:
   * {@code {"errcode":0,"errmsg":"ok"}}; 130101 ("send too fast") is tried again, 310000 (bad
   * signature) is not.
   */
  DINGTALK(true) {
    @Override
    public String url(String url, Instant now, Optional<String> secret) {
      if (secret.isEmpty()) return url;
      long ms = now.toEpochMilli();
      return url + (url.contains("?") ? "&" : "?") + "timestamp=" + ms + "&sign="
          + URLEncoder.encode(Signatures.dingtalk(ms, secret.get()), StandardCharsets.UTF_8);
    }

    @Override
    public Map<String, Object> body(String text, Map<String, Object> event, Instant now, Optional<String> secret) {
      return textMessage(text);
    }

    @Override
    public Verdict verdict(int status, String body) {
      return platform(status, body, "errcode", 130101);
    }
  },

  /**
   * WeCom group robot (群机器人配置说明, https://developer.work.weixin.qq.com/document/path/91770):
   * POST {@code {"msgtype":"text","text":{"content":...}}} to the URL with its key (content at most
   * 2048 bytes; alert texts are far shorter). Success: {@code {"errcode":0,"errmsg":"ok"}}. The page
   * limits a robot to 20 messages a minute but names no code for it, so no errcode is tried again.
   */
  WECOM(false) {
    @Override
    public Map<String, Object> body(String text, Map<String, Object> event, Instant now, Optional<String> secret) {
      return textMessage(text);
    }

    @Override
    public Verdict verdict(int status, String body) {
      return platform(status, body, "errcode", NONE);
    }
  },

  /**
   * Slack incoming webhook (https://api.slack.com/messaging/webhooks): POST {@code {"text":...}}.
   * Success: HTTP 200 with the body {@code ok}; errors are 400 invalid_payload, 403
   * action_prohibited, 404 channel_not_found, 410 channel_is_archived
   * (https://api.slack.com/changelog/2016-05-17-changes-to-errors-for-incoming-webhooks), not
   * tried again; 429 and 5xx are.
   */
  SLACK(false) {
    @Override
    public Map<String, Object> body(String text, Map<String, Object> event, Instant now, Optional<String> secret) {
      return Map.of("text", text);
    }

    @Override
    public Verdict verdict(int status, String body) {
      if (status == 200 && "ok".equals(body.trim())) return Verdict.DELIVERED;
      return http(status).orElseGet(() -> Verdict.failed("slack answered 2xx without its ok"));
    }
  },

  /** Plain JSON: the event itself ({@link AlertEvent#toMap}); any 2xx is success. */
  JSON(false) {
    @Override
    public Map<String, Object> body(String text, Map<String, Object> event, Instant now, Optional<String> secret) {
      return event;
    }

    @Override
    public Verdict verdict(int status, String body) {
      if (status / 100 == 2) return Verdict.DELIVERED;
      return http(status).orElseThrow();
    }
  };

  /** How one try went: delivered, worth another try, or refused for good; with the reason. */
  public record Verdict(Outcome outcome, String reason) {
    static final Verdict DELIVERED = new Verdict(Outcome.DELIVERED, null);

    static Verdict retry(String reason) {
      return new Verdict(Outcome.RETRY, reason);
    }

    static Verdict failed(String reason) {
      return new Verdict(Outcome.FAILED, reason);
    }
  }

  /** What one try came to. */
  public enum Outcome { DELIVERED, RETRY, FAILED }

  private static final JsonFactory JSON_FACTORY = new JsonFactory();
  /** No platform code means "try again later". */
  private static final long NONE = Long.MIN_VALUE;

  private final boolean signs;

  Channel(boolean signs) {
    this.signs = signs;
  }

  public String wire() {
    return WireNames.camel(this);
  }

  /** Whether the platform signs messages with a secret (Feishu, DingTalk). */
  public boolean signs() {
    return signs;
  }

  /** The URL to POST to: the webhook's own, signed when the platform signs on the URL. */
  public String url(String url, Instant now, Optional<String> secret) {
    return url;
  }

  /**
   * The body to POST (as JSON).
   *
   * @param text  the alert in the scenario's language
   * @param event the event as {@link AlertEvent#toMap} gives it
   * @param now   the signing time
   */
  public abstract Map<String, Object> body(String text, Map<String, Object> event, Instant now, Optional<String> secret);

  /**
   * Judges the platform's answer (its body cut to the response cap). A reason never repeats the
   * answer's text, which is the target's to choose: it gives the status class ({@code answered 5xx};
   * 429 as itself) or a known platform's numeric code ({@code dingtalk answered errcode 310000}).
   */
  public abstract Verdict verdict(int status, String body);

  static Channel parse(String wire) {
    return WireNames.find(values(), Channel::wire, wire);
  }

  static String names() {
    return WireNames.known(values(), Channel::wire);
  }

  private static Map<String, Object> textMessage(String text) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("msgtype", "text");
    m.put("text", Map.of("content", text));
    return m;
  }

  /** 429 and 5xx are worth another try; other non-2xx answers are not; a 2xx is left to the platform's own code. */
  private static Optional<Verdict> http(int status) {
    if (status == 429) return Optional.of(Verdict.retry("answered 429"));
    if (status >= 500) return Optional.of(Verdict.retry("answered 5xx"));
    if (status / 100 != 2) return Optional.of(Verdict.failed("answered " + status / 100 + "xx"));
    return Optional.empty();
  }

  /** A platform that answers {@code {<code>: 0, <msg>: ...}} on success and another code otherwise. */
  Verdict platform(int status, String body, String codeField, long rateLimited) {
    Optional<Verdict> byStatus = http(status);
    if (byStatus.isPresent()) return byStatus.get();
    Object code = topLevel(body).get(codeField);
    if (code instanceof Long n && n == 0) return Verdict.DELIVERED;
    if (!(code instanceof Long)) return Verdict.failed(wire() + " answered without its " + codeField);
    String why = wire() + " answered " + codeField + " " + code;
    return (Long) code == rateLimited ? Verdict.retry(why) : Verdict.failed(why);
  }

  /** The top-level scalar fields of a JSON object (numbers as Long when whole); empty when it is not one. */
  static Map<String, Object> topLevel(String body) {
    Map<String, Object> out = new HashMap<>();
    try (JsonParser p = JSON_FACTORY.createParser(body)) {
      if (p.nextToken() != JsonToken.START_OBJECT) return out;
      JsonToken t;
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken v = p.nextToken();
        if (v == JsonToken.VALUE_NUMBER_INT) out.put(name, p.getLongValue());
        else if (v == JsonToken.VALUE_STRING) out.put(name, p.getText());
        else if (v == JsonToken.START_OBJECT || v == JsonToken.START_ARRAY) p.skipChildren();
      }
    } catch (IOException | RuntimeException notJson) {
      // what was read so far, or nothing
    }
    return out;
  }
}
