package dev.gpurent.alert;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Where webhooks may go: hosts of the public internet ({@link AddressClassifier}), and whatever
 * hosts the operator allows ({@code alerts.allowHosts}, names or literals as URLs write them).
 * Checked twice. At registration, on the URL's host as written: an IP literal that is not public
 * (in any numeric form), or a name of this machine or of a local network ({@code localhost},
 * {@code *.localhost}, {@code *.local}, {@code *.internal}, a name without a dot, ...). Before
 * each try, on every address the host resolves to; the try then connects to an address that was
 * checked, so a name answered with another address a moment later (DNS rebinding) reaches
 * nothing new. No lookups here: resolving is the caller's.
 */
public final class WebhookHosts {

  /** The one reason a refused host is given, at registration: it says nothing of the target. */
  public static final String REFUSED = "must name a public host: loopback, private, link-local and internal addresses and names are "
      + "refused (an operator may allow a host in alerts.allowHosts)";

  private static final Set<String> LOCAL_NAMES = Set.of("localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback");
  private static final List<String> LOCAL_SUFFIXES = List.of(".localhost", ".local", ".localdomain", ".internal", ".lan", ".arpa");

  private final Set<String> allow;
  private final AddressClassifier classifier;

  public WebhookHosts(Set<String> allowHosts, AddressClassifier classifier) {
    this.allow = allowHosts.stream().map(WebhookHosts::normal).collect(Collectors.toUnmodifiableSet());
    this.classifier = classifier;
  }

  /** The policy of this machine: its interfaces' addresses are refused along with the rest. */
  public static WebhookHosts ofThisMachine(Set<String> allowHosts) {
    Set<InetAddress> own = new HashSet<>();
    try {
      for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        own.addAll(Collections.list(nif.getInetAddresses()));
      }
    } catch (SocketException e) {
      // no interface list: loopback, private and link-local addresses are refused all the same
    }
    return new WebhookHosts(allowHosts, new AddressClassifier(own));
  }

  /** A host as compared: lowercase, without IPv6 brackets or the root's trailing dot. */
  public static String normal(String host) {
    String h = host.toLowerCase(Locale.ROOT);
    if (h.startsWith("[") && h.endsWith("]")) h = h.substring(1, h.length() - 1);
    return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
  }

  /** Whether the operator allows this host, whatever its addresses. */
  public boolean allowed(String host) {
    return allow.contains(normal(host));
  }

  /** At registration: whether the host as written is refused (no lookup is made). */
  public boolean refusedAsWritten(String host) {
    if (allowed(host)) return false;
    String h = normal(host);
    Optional<InetAddress> literal;
    try {
      literal = AddressClassifier.literal(h);
    } catch (IllegalArgumentException numericButNoAddress) {
      return true;
    }
    if (literal.isPresent()) return classifier.refusal(literal.get()).isPresent();
    return h.isEmpty() || !h.contains(".") || LOCAL_NAMES.contains(h) || LOCAL_SUFFIXES.stream().anyMatch(h::endsWith);
  }

  /** Before a try: whether the host is refused given every address it resolved to (none: refused). */
  public boolean refused(String host, List<InetAddress> addresses) {
    if (allowed(host)) return false;
    return addresses.isEmpty() || addresses.stream().anyMatch(a -> classifier.refusal(a).isPresent());
  }
}
