package dev.gpurent.bench;

import dev.gpurent.adapter.EcbFxAdapter;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.Money;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * FX on the recorded ECB daily file (EUR base, about 30 currencies): a cross-rate lookup
 * (USD to CNY: two map reads and a DECIMAL64 division), a same-currency lookup, and converting a
 * Money through a cross rate and through the identity.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FxBench {

  private FxRates fx;
  private Money usd;
  private Money cny;
  private String to = "CNY";

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    try (InputStream in = Files.newInputStream(BenchSupport.ECB)) {
      fx = EcbFxAdapter.parse(in, BenchSupport.ECB.toString()).latest();
    }
    usd = new Money(new BigDecimal("1234.5678"), "USD");
    cny = new Money(new BigDecimal("1234.5678"), "CNY");
    if (fx.rate("USD", "CNY").isEmpty()) throw new IllegalStateException("no USD/CNY in " + BenchSupport.ECB);
  }

  @Benchmark
  public Optional<BigDecimal> rateCross() {
    return fx.rate("USD", to);
  }

  @Benchmark
  public Optional<BigDecimal> rateSame() {
    return fx.rate("CNY", to);
  }

  @Benchmark
  public FxRates.Conversion convertCross() {
    return fx.convert(usd, to);
  }

  @Benchmark
  public FxRates.Conversion convertSame() {
    return fx.convert(cny, to);
  }
}
