package dev.gpurent.alert;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** The two bots' signatures, each as its platform documents it (see {@link Channel}). */
final class Signatures {

  private Signatures() {}

  /**
   * Feishu / Lark custom bot: Base64(HmacSHA256 keyed with {@code timestamp + "\n" + secret}, over
   * no data); the timestamp in seconds. Source: "自定义机器人使用指南", 签名校验,
   * https://open.larkoffice.com/document/ukTMukTMukTM/ucTM5YjL3ETO24yNxkjN
   */
  static String feishu(long epochSeconds, String secret) {
    return Base64.getEncoder().encodeToString(hmac((epochSeconds + "\n" + secret).getBytes(StandardCharsets.UTF_8), new byte[0]));
  }

  /**
   * DingTalk custom robot: Base64(HmacSHA256 keyed with the secret, over
   * {@code timestamp + "\n" + secret}), URL-encoded by the caller; the timestamp in milliseconds.
   * Source: 钉钉开放平台 自定义机器人安全设置, 加签 (mirrored at https://apifox.com/apidoc/docs-site/467052/doc-3550006).
   */
  static String dingtalk(long epochMillis, String secret) {
    return Base64.getEncoder().encodeToString(hmac(secret.getBytes(StandardCharsets.UTF_8),
        (epochMillis + "\n" + secret).getBytes(StandardCharsets.UTF_8)));
  }

  private static byte[] hmac(byte[] key, byte[] data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }
}
