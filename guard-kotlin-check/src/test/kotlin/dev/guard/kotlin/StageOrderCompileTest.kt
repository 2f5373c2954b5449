package dev.guard.kotlin

import java.io.ByteArrayOutputStream
import java.io.PrintStream
import java.nio.file.Files
import java.nio.file.Path
import java.util.Locale
import javax.tools.Diagnostic
import javax.tools.DiagnosticCollector
import javax.tools.JavaFileObject
import javax.tools.ToolProvider
import org.assertj.core.api.Assertions.assertThat
import org.jetbrains.kotlin.cli.common.ExitCode
import org.jetbrains.kotlin.cli.jvm.K2JVMCompiler
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test

/**
 * The builder's stages turn invalid step orders into compile errors, from Kotlin and from Java:
 * the invalid orders below are compiled, one per line, and every line must fail naming the step
 * its stage does not offer; the valid orders compile (from Kotlin they also compile as this
 * module's own code, in [StagesFromKotlinTest]).
 */
@Tag("process")
class StageOrderCompileTest {

    /** Invalid orders, written the same in Kotlin and Java, with the step that is missing. */
    private val invalid = listOf(
        """Guard.of("r").concurrency(5).warmUp(Duration.ofSeconds(1))""" to "warmUp",
        """Guard.of("r").concurrency(5).pacing(Duration.ZERO)""" to "pacing",
        """Guard.of("r").warmUp(Duration.ofSeconds(1))""" to "warmUp",
        """Guard.of("r").fromOrigin("a")""" to "fromOrigin",
        """Guard.of("r").errorRatio(0.5).burst(2)""" to "burst",
        """Guard.of("r").qps(5).prioritized().warmUp(Duration.ofSeconds(1))""" to "warmUp",
        """Guard.of("r").qps(5).errorRatio(0.5).pacing(Duration.ZERO)""" to "pacing",
        """Guard.of("r").qps(5).burst(2)""" to "burst",
        """Guard.of("r").qps(5).minCalls(3)""" to "minCalls",
        """Guard.of("r").concurrency(5).minCalls(3)""" to "minCalls",
        """Guard.of("r").perValue(0, 2).warmUp(Duration.ofSeconds(1))""" to "warmUp",
        """Guard.of("r").perValue(0, 2).fromOrigin("a")""" to "fromOrigin",
        """Guard.of("r").perValueConcurrency(0, 2).burst(1)""" to "burst",
        """Guard.of("r").perValueConcurrency(0, 2).period(Duration.ofSeconds(1))""" to "period",
        """Guard.of("r").perValueConcurrency(0, 2).pacing(Duration.ZERO)""" to "pacing",
        """Guard.of("r").except("v", 1)""" to "except",
        """Guard.of("r").openFor(Duration.ofSeconds(1))""" to "openFor",
        """Guard.of("r").errorRatio(0.5).qps(5).openFor(Duration.ofSeconds(1))""" to "openFor",
        """Guard.of("r").errorRatio(0.5).except("v", 1)""" to "except",
        """Guard.of("r").errorRatio(0.5).warmUp(Duration.ofSeconds(1))""" to "warmUp",
        """Guard.of("r").concurrency(5).aimd()""" to "aimd",
        """Guard.of("r").share("live", 0.9)""" to "share",
        """Guard.of("r").adaptiveConcurrency().warmUp(Duration.ofSeconds(1))""" to "warmUp",
        """Guard.of("r").adaptiveConcurrency().qps(5).limits(1, 1, 2)""" to "limits",
        """Guard.of("r").adaptiveConcurrency().timeout(Duration.ofSeconds(1)).aimd()""" to "aimd",
        """Guard.of("r").qps(5).quota(9, Duration.ofMinutes(1)).warmUp(Duration.ofSeconds(1))""" to "warmUp",
        """Guard.of("r").qps(5).quota(9, Duration.ofMinutes(1)).pacing(Duration.ZERO)""" to "pacing",
        """Guard.of("r").qps(5).quota(9, Duration.ofMinutes(1)).relatedTo("o")""" to "relatedTo",
        """Guard.of("r").qps(5).quota(9, Duration.ofMinutes(1)).perInstance()""" to "perInstance",
        """Guard.of("r").qps(5).warmUp(Duration.ofSeconds(1)).quota(9, Duration.ofMinutes(1))""" to "quota",
        """Guard.of("r").qps(5).pacing(Duration.ZERO).quota(9, Duration.ofMinutes(1))""" to "quota",
        """Guard.of("r").qps(5).pacing(Duration.ZERO).clusterWide()""" to "clusterWide",
        """Guard.of("r").concurrency(5).quota(9, Duration.ofMinutes(1))""" to "quota",
        """Guard.of("r").quota(9, Duration.ofMinutes(1))""" to "quota",
        """Guard.of("r").perValue(0, 2).pacing(Duration.ZERO).quota(9, Duration.ofMinutes(1))""" to "quota",
        """Guard.of("r").perValue(0, 2).pacing(Duration.ZERO).clusterWide()""" to "clusterWide",
        """Guard.of("r").perValue(0, 2).pacing(Duration.ZERO).burst(1)""" to "burst",
    )

    /** Valid orders, the same in both languages. */
    private val valid = listOf(
        """Guard.of("r").qps(5).warmUp(Duration.ofSeconds(1)).pacing(Duration.ZERO)""",
        """Guard.of("r").qps(5).fromOrigin("a").relatedTo("o").clusterWide()""",
        """Guard.of("r").concurrency(5).fromOrigin("a").fromEntrance("e").perInstance()""",
        """Guard.of("r").perValue(0, 5).burst(1).except("v", 2).maxValues(10).pacing(Duration.ZERO)""",
        """Guard.of("r").perValue(0, 5).pacing(Duration.ZERO).except("v", 2).period(Duration.ofSeconds(2)).maxValues(10)""",
        """Guard.of("r").perValue(0, 100).period(Duration.ofMinutes(1)).quota(10000, Duration.ofDays(1)).clusterWide()""",
        """Guard.of("r").qps(50).fromOrigin("p").quota(1000, Duration.ofMinutes(1)).quota(50000, Duration.ofDays(1)).clusterWide()""",
        """Guard.of("r").qps(50).quota(1000, Duration.ofMinutes(1)).fromOrigin("p").errorRatio(0.5)""",
        """Guard.of("r").perValueConcurrency(0, 5).except("v", 2).valueType(String.class).maxValues(10)"""
            .replace("String.class", "STRING_TYPE"),
        """Guard.of("r").errorRatio(0.5).minCalls(2).window(Duration.ofSeconds(2), 2).openFor(Duration.ofSeconds(1))""",
        """Guard.of("r").errorCount(1).probes(2).qps(5).warmUp(Duration.ofSeconds(1)).origin("o")""",
        """Guard.of("r").adaptiveConcurrency().limits(5, 1, 10).aimd().slowerThan(Duration.ofMillis(5)).window(Duration.ofMillis(50)).share("a", 0.5).timeout(Duration.ofSeconds(1))""",
    )

    private val firstLine = 5

    private fun kotlinSource(lines: List<String>): String = buildString {
        append("import dev.guard.Guard\n")
        append("import java.time.Duration\n")
        append("val STRING_TYPE = String::class.java\n")
        append("fun all(): List<Any> = listOf(\n")
        lines.forEach { append("    ").append(it).append(",\n") }
        append(")\n")
    }

    private fun javaSource(lines: List<String>): String = buildString {
        append("import dev.guard.Guard;\n")
        append("import java.time.Duration;\n")
        append("class Snippet {\n")
        append("  static final Class<String> STRING_TYPE = String.class; static void all() { Object unused;\n")
        lines.forEach { append("    unused = ").append(it).append(";\n") }
        append("  }\n}\n")
    }

    /** Compiles Kotlin; the error messages by line. */
    private fun compileKotlin(lines: List<String>): Pair<ExitCode, Map<Int, List<String>>> {
        val dir = Files.createTempDirectory("guard-kotlin-stages")
        val source = dir.resolve("Snippet.kt")
        Files.writeString(source, kotlinSource(lines))
        val messages = ByteArrayOutputStream()
        val exit = K2JVMCompiler().exec(
            PrintStream(messages),
            "-classpath", System.getProperty("java.class.path"),
            "-d", dir.resolve("out").toString(),
            "-no-reflect", "-no-stdlib",
            "-Xjspecify-annotations=strict",
            source.toString())
        val errors = Regex("""Snippet\.kt:(\d+):\d+: error: (.*)""").findAll(messages.toString())
            .groupBy({ it.groupValues[1].toInt() }, { it.groupValues[2] })
        return exit to errors
    }

    /** Compiles Java with the JDK's compiler; the error messages by line. */
    private fun compileJava(lines: List<String>): Map<Int, List<String>> {
        val dir: Path = Files.createTempDirectory("guard-java-stages")
        val source = dir.resolve("Snippet.java")
        Files.writeString(source, javaSource(lines))
        val compiler = ToolProvider.getSystemJavaCompiler()
        val diagnostics = DiagnosticCollector<JavaFileObject>()
        compiler.getStandardFileManager(null, null, null).use { files ->
            val options = listOf("-classpath", System.getProperty("java.class.path"),
                "-d", dir.resolve("out").toString(), "-proc:none")
            compiler.getTask(null, files, diagnostics, options, null, files.getJavaFileObjects(source)).call()
        }
        return diagnostics.diagnostics.filter { it.kind == Diagnostic.Kind.ERROR }
            .groupBy({ it.lineNumber.toInt() }, { it.getMessage(Locale.ROOT) })
    }

    @Test
    fun invalidOrders_fromKotlin_doNotCompile_eachNamingTheMissingStep() {
        val (exit, errors) = compileKotlin(invalid.map { it.first })

        assertThat(exit).isEqualTo(ExitCode.COMPILATION_ERROR)
        invalid.forEachIndexed { i, (snippet, step) ->
            assertThat(errors[firstLine + i]).`as`(snippet).isNotNull
                .anySatisfy { assertThat(it).containsIgnoringCase("unresolved reference").contains("'$step'") }
        }
        assertThat(errors.keys).`as`("only the snippets' lines fail").hasSize(invalid.size)
    }

    @Test
    fun validOrders_fromKotlin_compile() {
        val (exit, errors) = compileKotlin(valid)

        assertThat(errors).isEmpty()
        assertThat(exit).isEqualTo(ExitCode.OK)
    }

    @Test
    fun invalidOrders_fromJava_doNotCompile_eachNamingTheMissingStep() {
        val errors = compileJava(invalid.map { it.first })

        invalid.forEachIndexed { i, (snippet, step) ->
            assertThat(errors[firstLine + i]).`as`(snippet).isNotNull
                .anySatisfy { assertThat(it).contains("cannot find symbol").contains("method $step(") }
        }
        assertThat(errors.keys).`as`("only the snippets' lines fail").hasSize(invalid.size)
    }

    @Test
    fun validOrders_fromJava_compile() {
        assertThat(compileJava(valid)).isEmpty()
    }
}
