package dev.gpurent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./gpurent} launcher, run by bash as a user runs it, in a copy of its own with no jar
 * built, and with stand-ins for {@code mvn} and {@code java} first on the PATH that print what they
 * were given: so that what it builds with and what it hands the JVM is seen without building.
 */
class LauncherTest {

  record Run(int status, List<String> javaArgs, String stderr) {}

  static Run launch(Path dir, String... args) throws Exception {
    Path copy = Files.createDirectories(dir.resolve("checkout"));
    Files.copy(Path.of("gpurent"), copy.resolve("gpurent"), StandardCopyOption.REPLACE_EXISTING);
    Files.createDirectories(copy.resolve("src"));
    Files.writeString(copy.resolve("pom.xml"), "<project/>");
    Path bin = Files.createDirectories(dir.resolve("bin"));
    stub(bin.resolve("mvn"), "echo \"mvn $* MAVEN_OPTS=$MAVEN_OPTS\" >&2");
    stub(bin.resolve("java"), "for a in \"$@\"; do echo \"$a\"; done");
    List<String> command = new ArrayList<>(List.of("bash", copy.resolve("gpurent").toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectError(dir.resolve("stderr").toFile());
    pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
    pb.environment().remove("MAVEN_OPTS");
    Process p = pb.start();
    List<String> out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    assertTrue(p.waitFor(30, TimeUnit.SECONDS));
    return new Run(p.exitValue(), out, Files.readString(dir.resolve("stderr")));
  }

  static void stub(Path file, String body) throws Exception {
    Files.writeString(file, "#!/usr/bin/env bash\n" + body + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @Test
  void hands_d_arguments_to_the_jvm_and_the_rest_to_the_jar(@TempDir Path dir) throws Exception {
    Run r = launch(dir, "serve", "-Dhttp.port=9090", "--root", "some dir", "-Dquotes.offline=true", "--", "-Dliteral=x");
    assertEquals(0, r.status(), r.stderr());
    assertEquals(List.of("-Dhttp.port=9090", "-Dquotes.offline=true", "-jar", "target/gpurent.jar", "serve", "--root", "some dir",
        "--", "-Dliteral=x"), r.javaArgs(), "after a -- every argument is the command's");
  }

  @Test
  void builds_without_colour_codes_and_runs_with_no_arguments(@TempDir Path dir) throws Exception {
    Run r = launch(dir);
    assertEquals(0, r.status(), r.stderr());
    assertEquals(List.of("-jar", "target/gpurent.jar"), r.javaArgs());
    assertTrue(r.stderr().startsWith("gpurent: building target/gpurent.jar ...\nmvn -B -q -ntp -Dstyle.color=never package -DskipTests"),
        r.stderr());
    assertTrue(r.stderr().contains("MAVEN_OPTS= -Djansi.noreset=true"), "Debian's Maven 3.8 resets colours unless told not to: " + r.stderr());
  }
}
