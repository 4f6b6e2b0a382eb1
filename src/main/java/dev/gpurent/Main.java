package dev.gpurent;

import dev.gpurent.cli.AdviseCommand;
import dev.gpurent.cli.ExitCodes;
import dev.gpurent.cli.ImportHistoryCommand;
import dev.gpurent.cli.QuoteSheetCommand;
import dev.gpurent.cli.QuotesCommand;
import dev.gpurent.cli.RankCommand;
import dev.gpurent.cli.ServeCommand;
import dev.gpurent.cli.SizingCommand;
import dev.gpurent.cli.SnapshotCommand;
import dev.gpurent.cli.TokenPricesCommand;
import dev.gpurent.cli.VendorsCommand;
import dev.gpurent.catalog.UnknownGpuException;
import dev.gpurent.cost.InvalidInputException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The command line, one subcommand each: {@code serve} (the service), {@code rank} (a scenario's
 * bills, best first), {@code quotes} (the quotes, filtered), {@code vendors} (what the vendors
 * cover), {@code sizing} (cards for a model), {@code advise} (a running fleet), {@code snapshot}
 * (one dated snapshot, for cron), {@code import-history} (a market CSV as price history) and
 * {@code quote-sheet template|import} (the workbook a vendor fills in). Exit 0 on success, 2 on
 * bad input, 1 on failure.
 */
@Command(name = "gpurent", mixinStandardHelpOptions = true, version = "gpurent 0.1.0",
    description = {"Ranks GPU rental vendors by the whole monthly bill of a workload.",
        "Exit status: 0 done, 1 failed, 2 bad input."},
    subcommands = {ServeCommand.class, RankCommand.class, QuotesCommand.class, VendorsCommand.class, SizingCommand.class,
        AdviseCommand.class, SnapshotCommand.class, ImportHistoryCommand.class, QuoteSheetCommand.class,
        TokenPricesCommand.class})
public final class Main implements Runnable {

  private static final String LOG4J_FACTORY = "log4j2.loggerContextFactory";

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    // POI brings log4j-api without a provider (gpurent logs through java.util.logging): looking for
    // one, log4j prints "could not find a logging provider" on every run before falling back to its
    // simple logger. Naming that logger up front skips the search, and nothing else changes.
    if (System.getProperty(LOG4J_FACTORY) == null) System.setProperty(LOG4J_FACTORY, "org.apache.logging.log4j.simple.SimpleLoggerContextFactory");
    System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
  }

  /** Runs one command with the given streams and returns its exit status. */
  public static int run(PrintWriter out, PrintWriter err, String... args) {
    CommandLine cl = new CommandLine(new Main());
    cl.setOut(out);
    cl.setErr(err);
    cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      if (e instanceof InvalidInputException || e instanceof UnknownGpuException || e instanceof IllegalArgumentException) {
        err.println("gpurent: " + e.getMessage());
        return ExitCodes.BAD_INPUT;
      }
      // a failure, not bad input: the message without the class name (the stack trace is not for users)
      err.println("gpurent: failed: " + dev.gpurent.config.UserText.withoutPaths(e.getMessage() == null ? "internal error" : e.getMessage()));
      return ExitCodes.FAILED;
    });
    int status = cl.execute(args);
    out.flush();
    err.flush();
    return status;
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
