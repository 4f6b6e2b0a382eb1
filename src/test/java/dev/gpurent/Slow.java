package dev.gpurent;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test that takes seconds, starts processes or needs a browser or a database server: tagged
 * "slow", so that Surefire runs it in an execution of its own after the fast ones (pom.xml), and
 * {@code -Dgpurent.skipSlowTests=true} leaves it out while working.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("slow")
public @interface Slow {}
