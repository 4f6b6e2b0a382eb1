package dev.gpurent.service.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Wrong admin tokens per client and minute, on a clock the test moves; and the warning a short token gets. */
class FailureLimitTest {

  static final long SECOND = 1_000_000_000L;

  @Test
  void a_client_past_its_failures_is_blocked_until_its_minute_ends() {
    AtomicLong now = new AtomicLong(5 * SECOND);
    FailureLimit limit = new FailureLimit(3, now::get);
    for (int i = 1; i <= 3; i++) {
      assertEquals(0, limit.blockedFor("127.0.0.0/24"));
      assertEquals(i, limit.failed("127.0.0.0/24"));
    }
    assertEquals(60, limit.blockedFor("127.0.0.0/24"));
    assertEquals(0, limit.blockedFor("127.0.1.0/24"));
    now.addAndGet(45 * SECOND + SECOND / 2);
    assertEquals(15, limit.blockedFor("127.0.0.0/24"));
    now.addAndGet(15 * SECOND);
    assertEquals(0, limit.blockedFor("127.0.0.0/24"));
    assertEquals(1, limit.failed("127.0.0.0/24"));
  }

  @Test
  void past_its_room_for_clients_newcomers_share_one_count() {
    AtomicLong now = new AtomicLong();
    FailureLimit limit = new FailureLimit(2, now::get);
    for (int i = 0; i < FailureLimit.MAX_CLIENTS; i++) limit.failed("client-" + i);
    assertEquals(1, limit.failed("newcomer-a"));
    assertEquals(2, limit.failed("newcomer-b"));
    assertEquals(60, limit.blockedFor("newcomer-c"));
    // once their minutes are over, the room is theirs again
    now.addAndGet(61 * SECOND);
    assertEquals(1, limit.failed("newcomer-d"));
    assertEquals(0, limit.blockedFor("newcomer-e"));
  }

  @Test
  void a_token_shorter_than_16_characters_is_warned_of() {
    assertEquals(Optional.of("the admin token is 1 characters long: use at least 16 random ones (e.g. openssl rand -hex 24), or it"
        + " can be guessed"), AdminRoutes.shortTokenWarning("x"));
    assertEquals(Optional.empty(), AdminRoutes.shortTokenWarning("0123456789abcdef"));
    assertEquals(Optional.empty(), AdminRoutes.shortTokenWarning(""));
  }
}
