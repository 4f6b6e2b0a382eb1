package dev.gpurent.adapter;

import java.security.SecureRandom;
import java.util.HexFormat;

/** The plug-in of kind {@code alibaba-ecs}: Alibaba Cloud's signed ECS price API, see {@link AlibabaEcsAdapter}. */
public final class AlibabaEcsFactory extends SignedCloudFactory {

  private static final SecureRandom RANDOM = new SecureRandom();

  public AlibabaEcsFactory() {
    super(AlibabaEcsAdapter.KIND, (vertx, def, catalog, env, clock) -> AlibabaEcsAdapter.adapter(vertx, def, catalog, env, clock,
        AlibabaEcsFactory::nonce));
  }

  /** A signature nonce: 16 random bytes in hex. */
  private static String nonce() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }
}
