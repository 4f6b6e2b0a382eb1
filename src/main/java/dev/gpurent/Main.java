package dev.gpurent;

import dev.gpurent.cli.AdviseCommand;
import dev.gpurent.cli.QuotesCommand;
import dev.gpurent.cli.RankCommand;
import dev.gpurent.cli.ServeCommand;
import dev.gpurent.cli.SizingCommand;
import dev.gpurent.cli.VendorsCommand;
import dev.gpurent.catalog.UnknownGpuException;
import dev.gpurent.cost.InvalidInputException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The command line: {@code serve}, {@code rank}, {@code quotes}, {@code sizing}, {@code advise}, {@code quote-sheet}. Exit 0 on success, 2 on bad input, 1 on failure. */
@Command(name = "gpurent", mixinStandardHelpOptions = true, version = "gpurent 0.1.0",
    description = "Ranks GPU rental vendors by the whole monthly bill of a workload.",
    subcommands = {ServeCommand.class, RankCommand.class, QuotesCommand.class, VendorsCommand.class, SizingCommand.class, AdviseCommand.class,
        dev.gpurent.cli.SnapshotCommand.class, dev.gpurent.cli.ImportHistoryCommand.class,
        dev.gpurent.cli.QuoteSheetCommand.class})
public final class Main implements Runnable {

  public static final int BAD_INPUT = 2;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
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
        return BAD_INPUT;
      }
      // a failure, not bad input: the message without the class name (the stack trace is not for users)
      err.println("gpurent: failed: " + dev.gpurent.config.UserText.withoutPaths(e.getMessage() == null ? "internal error" : e.getMessage()));
      return 1;
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
