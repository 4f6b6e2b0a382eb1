package dev.gpurent.adapter;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The request signatures of the three Chinese clouds' APIs, each exactly as its own documentation
 * specifies it (and tested against that documentation's worked example, to the byte):
 * <ul>
 *   <li>Tencent Cloud TC3-HMAC-SHA256 ("签名方法 v3", https://cloud.tencent.com/document/api/213/30654);</li>
 *   <li>Alibaba Cloud ACS3-HMAC-SHA256 ("V3版本请求体&签名机制",
 *       https://help.aliyun.com/zh/sdk/product-overview/v3-request-structure-and-signature);</li>
 *   <li>UCloud's SHA1 signature ("签名算法", https://docs.ucloud.cn/api/summary/signature).</li>
 * </ul>
 * Secrets pass through these methods only; nothing here logs or keeps them.
 */
final class CloudSigning {

  private CloudSigning() {}

  // --- Tencent Cloud TC3-HMAC-SHA256

  /** What a TC3 signature is made of, for tests and for the request headers. */
  record Tc3(String canonicalRequest, String stringToSign, String signature, String authorization) {}

  /**
   * Signs a POST of {@code payload} (JSON) to {@code host}: the canonical request (method POST,
   * URI "/", empty query, headers content-type and host), the string to sign (algorithm, timestamp,
   * credential scope {@code date/service/tc3_request}, hashed canonical request), the signing key
   * derived as HMAC("TC3" + key, date) -> service -> "tc3_request", and the Authorization header.
   */
  static Tc3 tc3(String secretId, String secretKey, String service, String host, String contentType, String payload,
                 long timestamp) {
    String date = DateTimeFormatter.ISO_LOCAL_DATE.withZone(ZoneOffset.UTC).format(Instant.ofEpochSecond(timestamp));
    String signedHeaders = "content-type;host";
    String canonical = "POST\n/\n\n" + "content-type:" + contentType + "\n" + "host:" + host + "\n\n" + signedHeaders + "\n"
        + sha256Hex(payload);
    String scope = date + "/" + service + "/tc3_request";
    String toSign = "TC3-HMAC-SHA256\n" + timestamp + "\n" + scope + "\n" + sha256Hex(canonical);
    byte[] kDate = hmac256(("TC3" + secretKey).getBytes(StandardCharsets.UTF_8), date);
    byte[] kService = hmac256(kDate, service);
    byte[] kSigning = hmac256(kService, "tc3_request");
    String signature = HexFormat.of().formatHex(hmac256(kSigning, toSign));
    String auth = "TC3-HMAC-SHA256 Credential=" + secretId + "/" + scope + ", SignedHeaders=" + signedHeaders + ", Signature="
        + signature;
    return new Tc3(canonical, toSign, signature, auth);
  }

  // --- Alibaba Cloud ACS3-HMAC-SHA256

  /** What an ACS3 signature is made of. */
  record Acs3(String canonicalQuery, String canonicalRequest, String stringToSign, String signature, String authorization) {}

  /**
   * Signs an RPC-style request (parameters in the query, URI "/"): the canonical query (names
   * sorted, names and values RFC 3986-encoded), the canonical headers ({@code host} and every
   * {@code x-acs-*} header, lowercase, sorted, values trimmed), the hashed payload, then
   * {@code HexEncode(HMAC-SHA256(secret, "ACS3-HMAC-SHA256\n" + HexEncode(SHA256(canonical))))}.
   *
   * @param headers host, x-acs-action, x-acs-version, x-acs-date, x-acs-signature-nonce and
   *                x-acs-content-sha256 (the hash of the body, of "" when there is none)
   */
  static Acs3 acs3(String accessKeyId, String secret, String method, Map<String, String> query, Map<String, String> headers,
                   String payload) {
    StringBuilder q = new StringBuilder();
    for (Map.Entry<String, String> e : new TreeMap<>(query).entrySet()) {
      if (q.length() > 0) q.append('&');
      q.append(rfc3986(e.getKey())).append('=').append(rfc3986(e.getValue()));
    }
    SortedMap<String, String> signed = new TreeMap<>();
    for (Map.Entry<String, String> h : headers.entrySet()) {
      String name = h.getKey().toLowerCase(java.util.Locale.ROOT);
      if (name.equals("host") || name.equals("content-type") || name.startsWith("x-acs-")) signed.put(name, h.getValue().trim());
    }
    StringBuilder canonicalHeaders = new StringBuilder();
    signed.forEach((k, v) -> canonicalHeaders.append(k).append(':').append(v).append('\n'));
    String signedHeaders = String.join(";", signed.keySet());
    String canonical = method + "\n/\n" + q + "\n" + canonicalHeaders + "\n" + signedHeaders + "\n" + sha256Hex(payload);
    String toSign = "ACS3-HMAC-SHA256\n" + sha256Hex(canonical);
    String signature = HexFormat.of().formatHex(hmac256(secret.getBytes(StandardCharsets.UTF_8), toSign));
    String auth = "ACS3-HMAC-SHA256 Credential=" + accessKeyId + ",SignedHeaders=" + signedHeaders + ",Signature=" + signature;
    return new Acs3(q.toString(), canonical, toSign, signature, auth);
  }

  /** RFC 3986 percent-encoding: A-Z a-z 0-9 - _ . ~ as they are, every other UTF-8 byte as %XX. */
  static String rfc3986(String s) {
    StringBuilder b = new StringBuilder();
    for (byte x : s.getBytes(StandardCharsets.UTF_8)) {
      int c = x & 0xff;
      if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' || c == '~') {
        b.append((char) c);
      } else {
        b.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16))).append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
      }
    }
    return b.toString();
  }

  // --- UCloud

  /**
   * UCloud's signature: the parameters (PublicKey included, Signature not) sorted by name, each
   * name followed by its value, with no escaping, then the private key; the SHA1 of that, in
   * lowercase hex. Values are given as the request sends them (true/false, 42 rather than 42.0).
   */
  static String ucloud(Map<String, String> params, String privateKey) {
    StringBuilder b = new StringBuilder();
    new TreeMap<>(params).forEach((k, v) -> b.append(k).append(v));
    b.append(privateKey);
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(b.toString().getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  // --- primitives

  static String sha256Hex(String s) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] hmac256(byte[] key, String msg) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(msg.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
