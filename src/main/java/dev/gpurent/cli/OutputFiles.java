package dev.gpurent.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A file the user named for output, opened so that a path that cannot be written is bad input
 * (exit 2) naming the option, the path and why, instead of a bare "failed: PATH".
 */
final class OutputFiles {

  private OutputFiles() {}

  /** Fails as {@link #open} would for a missing folder or a folder in the way, before any work is done. */
  static void check(String option, Path file) {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null && !Files.isDirectory(parent)) {
      throw new IllegalArgumentException(option + ": cannot write " + file + ": the folder "
          + (file.getParent() == null ? parent : file.getParent()) + " does not exist");
    }
    if (Files.isDirectory(file)) throw new IllegalArgumentException(option + ": cannot write " + file + ": it is a folder");
  }

  static OutputStream open(String option, Path file) {
    check(option, file);
    try {
      return Files.newOutputStream(file);
    } catch (AccessDeniedException e) {
      throw new IllegalArgumentException(option + ": cannot write " + file + ": permission denied");
    } catch (FileSystemException e) {
      throw new IllegalArgumentException(option + ": cannot write " + file + ": "
          + (e.getReason() == null ? "the file system refused it" : e.getReason()));
    } catch (IOException e) {
      throw new IllegalArgumentException(option + ": cannot write " + file + ": " + e.getMessage());
    }
  }
}
