package dev.gpurent.alert;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How each platform's answer is judged (the bodies are asserted against local servers in service.AlertDeliveryTest). */
class ChannelTest {

  @Test
  void each_platform_judges_its_own_answer() {
    assertEquals(Channel.Outcome.DELIVERED, Channel.FEISHU.verdict(200, "{\"code\":0,\"data\":{},\"msg\":\"success\"}").outcome());
    assertEquals(new Channel.Verdict(Channel.Outcome.FAILED, "feishu answered code 19021"),
        Channel.FEISHU.verdict(200, "{\"code\":19021,\"data\":{},\"msg\":\"sign match fail or timestamp is not within one hour from current time\"}"));
    assertEquals(Channel.Outcome.RETRY, Channel.FEISHU.verdict(200, "{\"code\":11232,\"msg\":\"frequency limited\"}").outcome());
    assertEquals(Channel.Outcome.DELIVERED, Channel.DINGTALK.verdict(200, "{\"errcode\":0,\"errmsg\":\"ok\"}").outcome());
    assertEquals(new Channel.Verdict(Channel.Outcome.RETRY, "dingtalk answered errcode 130101"),
        Channel.DINGTALK.verdict(200, "{\"errcode\":130101,\"errmsg\":\"send too fast, exceed 20 times per minute\"}"));
    assertEquals(Channel.Outcome.FAILED, Channel.DINGTALK.verdict(200, "{\"errcode\":310000,\"errmsg\":\"sign not match\"}").outcome());
    assertEquals(Channel.Outcome.DELIVERED, Channel.WECOM.verdict(200, "{\"errcode\":0,\"errmsg\":\"ok\"}").outcome());
    assertEquals(new Channel.Verdict(Channel.Outcome.FAILED, "wecom answered without its errcode"), Channel.WECOM.verdict(200, "<html>"));
    assertEquals(Channel.Outcome.DELIVERED, Channel.SLACK.verdict(200, "ok").outcome());
    assertEquals(new Channel.Verdict(Channel.Outcome.FAILED, "answered 4xx"), Channel.SLACK.verdict(404, "channel_not_found"));
    assertEquals(new Channel.Verdict(Channel.Outcome.RETRY, "answered 5xx"), Channel.SLACK.verdict(500, "rollup_error"));
    assertEquals(new Channel.Verdict(Channel.Outcome.FAILED, "slack answered 2xx without its ok"), Channel.SLACK.verdict(200, "not ok"));
    assertEquals(new Channel.Verdict(Channel.Outcome.RETRY, "answered 429"), Channel.JSON.verdict(429, "slow down"));
    assertEquals(Channel.Outcome.DELIVERED, Channel.JSON.verdict(204, "").outcome());
    assertEquals(new Channel.Verdict(Channel.Outcome.FAILED, "answered 4xx"), Channel.JSON.verdict(403, "no"));
    assertEquals(new Channel.Verdict(Channel.Outcome.FAILED, "answered 3xx"), Channel.JSON.verdict(302, ""));
  }

  /** What a target answers never comes back in a reason: only a status class or a known platform's numeric code. */
  @Test
  void a_reason_never_repeats_the_answers_text() {
    String secret = "root:x:0:0:root:/root:/bin/bash";
    for (Channel c : Channel.values()) {
      for (int status : new int[] {200, 302, 401, 404, 429, 500, 503}) {
        for (String body : new String[] {secret, "{\"code\":7,\"errcode\":7,\"msg\":\"" + secret + "\",\"errmsg\":\"" + secret + "\"}"}) {
          String reason = String.valueOf(c.verdict(status, body).reason());
          org.junit.jupiter.api.Assertions.assertFalse(reason.contains("root"), c + " " + status + ": " + reason);
        }
      }
    }
    assertEquals("dingtalk answered errcode 7", Channel.DINGTALK.verdict(200, "{\"errcode\":7,\"errmsg\":\"" + secret + "\"}").reason());
  }

  @Test
  void dingtalk_signs_on_the_url_and_feishu_in_the_body() {
    Instant now = Instant.parse("2026-12-01T08:00:00Z");
    assertEquals("https://oapi.dingtalk.com/robot/send?access_token=t", Channel.DINGTALK.url("https://oapi.dingtalk.com/robot/send?access_token=t", now, Optional.empty()));
    assertEquals(Map.of("msg_type", "text", "content", Map.of("text", "hi")), Channel.FEISHU.body("hi", Map.of(), now, Optional.empty()));
  }
}
