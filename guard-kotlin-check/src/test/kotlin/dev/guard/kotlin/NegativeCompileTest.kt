package dev.guard.kotlin

import java.io.ByteArrayOutputStream
import java.io.PrintStream
import java.nio.file.Files
import org.assertj.core.api.Assertions.assertThat
import org.jetbrains.kotlin.cli.common.ExitCode
import org.jetbrains.kotlin.cli.jvm.K2JVMCompiler
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test

/**
 * guard's JSpecify annotations reach Kotlin as real types: passing null where guard says non-null
 * is a compile error, not a run-time NullPointerException. The snippets are compiled here with the
 * same settings as this module's own Kotlin code.
 */
@Tag("process")
class NegativeCompileTest {

    private fun compile(snippet: String): Pair<ExitCode, String> {
        val dir = Files.createTempDirectory("guard-kotlin-negative")
        val source = dir.resolve("Snippet.kt")
        Files.writeString(source, snippet)
        val messages = ByteArrayOutputStream()
        val exit = K2JVMCompiler().exec(
            PrintStream(messages),
            "-classpath", System.getProperty("java.class.path"),
            "-d", dir.resolve("out").toString(),
            "-no-reflect", "-no-stdlib",
            "-Xjspecify-annotations=strict",
            source.toString())
        return exit to messages.toString()
    }

    @Test
    fun nonNullParameter_givenNull_doesNotCompile() {
        val (exit, messages) = compile("""
            import dev.guard.Guard
            fun main() { Guard.of(null) }
            """.trimIndent())

        assertThat(exit).isEqualTo(ExitCode.COMPILATION_ERROR)
        assertThat(messages).contains("null cannot be a value of a non-null type")
    }

    @Test
    fun theSameSnippetWithAValue_compiles() {
        val (exit, messages) = compile("""
            import dev.guard.Guard
            fun main() { Guard.of("orders").qps(100) }
            """.trimIndent())

        assertThat(exit).`as`(messages).isEqualTo(ExitCode.OK)
    }
}
