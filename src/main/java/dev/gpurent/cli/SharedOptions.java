package dev.gpurent.cli;

import dev.gpurent.quote.QuoteBook;
import dev.gpurent.text.Lang;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options several commands share, declared once as picocli mixins so that their names,
 * defaults and help read the same in every command: {@link Root} for every command that reads
 * {@code config/}, {@link Adapters} for those that read the vendor files, and {@link Fetch} (both,
 * plus {@code --offline}) for those that fetch the vendors, {@link Language} for those that print engine text.
 */
final class SharedOptions {

  private SharedOptions() {}

  /** {@code --root DIR}. */
  static final class Root {
    @Option(names = "--root", paramLabel = "DIR", defaultValue = ".",
        description = "folder holding config/ and adapters/ (default: the current one)")
    Path dir;

    Workspace workspace() {
      return new Workspace(dir);
    }
  }

  /** {@code --lang zh|en}: the language of the words printed; by default the one {@code LANG} names, else English. */
  static final class Language {
    @Option(names = "--lang", paramLabel = "LANG", description = "zh or en: the language of the text printed (default: from LANG, else en)")
    String tag;

    Lang lang() {
      return tag != null ? Lang.of(tag) : Lang.fromEnvironment(System.getenv("LANG"));
    }
  }

  /** {@code --adapters DIR}; null when not given, and the config's {@code adapters} folder under the root is meant. */
  static final class Adapters {
    @Option(names = "--adapters", paramLabel = "DIR", description = "folder of vendor YAML files (default: adapters/ under --root)")
    Path dir;
  }

  /**
   * {@code --root}, {@code --adapters}, {@code --offline} and {@code --verbose}: where the vendors are, whether to reach
   * for the network, and whether each unreadable vendor is reported on its own line.
   */
  static final class Fetch {
    @Mixin
    Root root;

    @Mixin
    Adapters adapters;

    @Option(names = "--offline", description = "read only file sources; other vendors answer from their last fetched quotes, stale")
    boolean offline;

    @Option(names = "--verbose", description = "report each vendor that could not be read, with its reason (default: one line for all)")
    boolean verbose;

    Workspace workspace() {
      return root.workspace();
    }

    /** The vendors' quotes, fetched once as these options say, each vendor's outcome reported on {@code progress}. */
    QuoteBook quoteBook(Workspace ws, PrintWriter progress) throws Exception {
      return ws.quoteBook(adapters.dir, offline, verbose, progress);
    }

    /** As above, the progress in {@code lang}; {@code listedInOutput}: the output names the vendors with no quotes itself. */
    QuoteBook quoteBook(Workspace ws, PrintWriter progress, dev.gpurent.text.Lang lang, boolean listedInOutput) throws Exception {
      return ws.quoteBook(adapters.dir, offline, verbose, progress, lang, listedInOutput);
    }
  }
}
