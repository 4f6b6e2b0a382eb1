package dev.gpurent.alert;

import static dev.gpurent.alert.AddressClassifierTest.at;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** Which webhook hosts are refused: as written at registration, and on their addresses before a try. Nothing is resolved. */
class WebhookHostsTest {

  static final WebhookHosts PUBLIC_ONLY = new WebhookHosts(Set.of(), new AddressClassifier(Set.of()));

  static List<String> which(List<String> hosts, Predicate<String> refused) {
    return hosts.stream().filter(refused).toList();
  }

  @Test
  void refuses_non_public_literals_and_local_names_as_written() {
    List<String> refused = List.of("127.0.0.1", "[::1]", "localhost", "LOCALHOST.", "api.localhost", "localhost.localdomain", "printer.local",
        "metadata", "db.internal", "router.lan", "1.0.0.127.in-addr.arpa", "2130706433", "0x7f.1", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]",
        "10.1.2.3", "[fd00::1]", "169.254.169.254", "0.0.0.0", "[::]", "1.2.3.4.5", "");
    List<String> passed = List.of("hooks.slack.com", "oapi.dingtalk.com", "1.1.1.1", "[2606:4700:4700::1111]", "internal.test",
        "localhost.example.com");
    assertEquals(refused, which(refused, PUBLIC_ONLY::refusedAsWritten));
    assertEquals(List.of(), which(passed, PUBLIC_ONLY::refusedAsWritten));
  }

  @Test
  void refuses_a_host_when_any_of_its_addresses_is_not_public_or_it_has_none() {
    assertEquals(true, PUBLIC_ONLY.refused("internal.test", List.of(at("127.0.0.1"))));
    assertEquals(true, PUBLIC_ONLY.refused("split.test", List.of(at("1.1.1.1"), at("10.0.0.1"))));
    assertEquals(true, PUBLIC_ONLY.refused("gone.test", List.of()));
    assertEquals(false, PUBLIC_ONLY.refused("hooks.slack.com", List.of(at("1.1.1.1"), at("2606:4700:4700::1111"))));
  }

  @Test
  void an_allowed_host_passes_both_checks_in_any_spelling_and_only_it() {
    WebhookHosts h = new WebhookHosts(Set.of("Chat.Intranet.Example", "127.0.0.1", "[::1]"), new AddressClassifier(Set.of()));
    assertEquals(List.of(), which(List.of("chat.intranet.example", "CHAT.intranet.example.", "127.0.0.1", "[::1]"), h::refusedAsWritten));
    assertEquals(false, h.refused("chat.intranet.example", List.of(at("10.0.0.7"))));
    assertEquals(false, h.refused("127.0.0.1", List.of(at("127.0.0.1"))));
    assertEquals(List.of("localhost", "127.0.0.2", "other.intranet.example"),
        which(List.of("localhost", "127.0.0.2", "other.intranet.example"), host -> h.refused(host, List.of(at("127.0.0.1")))));
  }
}
