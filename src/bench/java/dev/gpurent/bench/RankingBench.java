package dev.gpurent.bench;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.config.YamlFiles;
import dev.gpurent.cost.CostModel;
import dev.gpurent.cost.Ranking;
import dev.gpurent.cost.Scenario;
import dev.gpurent.cost.ScenarioReader;
import dev.gpurent.quote.QuoteBook;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Ranking one scenario (the guide's open template: two workloads, storage, egress, a load
 * balancer) over 20 vendors x 30 cards x 4 billing modes x N regions: 2,400, 24,000 and 120,000
 * offers. Single-threaded: the figure is per core.
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.AverageTime, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RankingBench {

  @Param({"2400", "24000", "120000"})
  public int offers;

  private CostModel model;
  private Scenario scenario;
  private QuoteBook book;

  @Setup(Level.Trial)
  public void setUp() {
    GpuCatalog catalog = GpuCatalog.load(Path.of("config/gpus.yaml"));
    model = new CostModel(catalog);
    scenario = new ScenarioReader(catalog).read(YamlFiles.load(Path.of("config/scenarios/guide-template-open.yaml")));
    book = SyntheticBook.build(catalog, 20, 30, offers / 2400);
    if (book.quoteCount() != offers) throw new IllegalStateException("built " + book.quoteCount() + " offers");
  }

  @Benchmark
  public Ranking rank() {
    return model.rank(scenario, book);
  }
}
