package dev.gpurent.config;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Text as users may see it: without absolute file paths, which tell a caller where the service
 * is installed. A path is shown relative to the working directory (where {@code serve} and the
 * commands resolve relative paths), so it still names the file an operator must look at.
 */
public final class UserText {

  // An absolute path: a slash not preceded by a word, dot, colon or slash (which would make it
  // part of a URL or a relative path), then at least one folder.
  private static final Pattern ABSOLUTE = Pattern.compile("(?<![\\w.:/~-])/(?:[\\w.+@-]+/)+[\\w.+@-]*");
  private static final Path WORKING = Path.of("").toAbsolutePath().normalize();

  private UserText() {}

  /** {@code text} with every absolute path made relative to the working directory; null stays null. */
  public static String withoutPaths(String text) {
    if (text == null || text.indexOf('/') < 0) return text;
    Matcher m = ABSOLUTE.matcher(text);
    StringBuilder sb = new StringBuilder();
    while (m.find()) m.appendReplacement(sb, Matcher.quoteReplacement(isFile(m.group()) ? relative(m.group()) : m.group()));
    m.appendTail(sb);
    return sb.toString();
  }

  // Only text whose first folder exists at / is a file path; "/api/nope" in a message is a route.
  private static final java.util.Set<String> TOP = topFolders();

  private static java.util.Set<String> topFolders() {
    try (var list = java.nio.file.Files.list(Path.of("/"))) {
      return list.map(p -> p.getFileName() == null ? "" : p.getFileName().toString()).collect(java.util.stream.Collectors.toSet());
    } catch (java.io.IOException | RuntimeException e) {
      return java.util.Set.of("home", "tmp", "var", "usr", "opt", "root", "srv", "mnt", "work", "etc");
    }
  }

  private static boolean isFile(String path) {
    int end = path.indexOf('/', 1);
    return end > 1 && TOP.contains(path.substring(1, end));
  }

  /**
   * A vendor file's own path as quotes cite it: relative to its root, the folder that holds its
   * {@code adapters/} folder ({@code adapters/acme.yaml}), so that an export never names where
   * gpurent is installed.
   */
  public static String vendorFile(Path file) {
    return relative(rootOf(file), file.toString());
  }

  /** The root a vendor file lives under: the parent of its folder (the file's own folder when there is none). */
  public static Path rootOf(Path vendorFile) {
    Path f = vendorFile.toAbsolutePath().normalize();
    Path dir = f.getParent();
    return dir == null ? WORKING : dir.getParent() == null ? dir : dir.getParent();
  }

  /** {@code path} as shown relative to {@code base} when absolute ({@code ../shared/data/x.csv}). */
  public static String relative(Path base, String path) {
    try {
      Path p = Path.of(path);
      if (!p.isAbsolute()) return path;
      String r = base.toAbsolutePath().normalize().relativize(p.normalize()).toString();
      return r.isEmpty() ? "." : r;
    } catch (RuntimeException e) {
      return path;
    }
  }

  /** One path as shown: relative to the working directory when absolute. */
  public static String relative(String path) {
    return relative(WORKING, path);
  }
}
