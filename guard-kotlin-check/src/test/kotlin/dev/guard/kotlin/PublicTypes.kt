package dev.guard.kotlin

import java.lang.module.ModuleDescriptor
import java.lang.reflect.Modifier
import java.nio.file.FileSystems
import java.nio.file.Files
import java.nio.file.Path

/**
 * The public types (nested ones included, as binary names such as `a.B$C`) of the packages a
 * module exports to everyone, read from the module's own `module-info.class`; the module is the
 * one that holds [anchor].
 */
internal object PublicTypes {

    fun of(anchor: Class<*>): List<String> {
        val location = Path.of(anchor.protectionDomain.codeSource.location.toURI())
        if (Files.isDirectory(location)) {
            return under(location, anchor.classLoader)
        }
        FileSystems.newFileSystem(location).use { jar -> return under(jar.getPath("/"), anchor.classLoader) }
    }

    private fun under(root: Path, loader: ClassLoader): List<String> {
        val descriptor = root.resolve("module-info.class")
        if (!Files.exists(descriptor)) {
            return automatic(root, loader)
        }
        val module = Files.newInputStream(descriptor).use { ModuleDescriptor.read(it) }
        return module.exports().filter { !it.isQualified }.flatMap { exports -> inPackage(root, exports.source(), loader) }
    }

    /**
     * A module without a descriptor (the Spring modules, named by `Automatic-Module-Name`) exports
     * every package it has; guard's convention keeps implementation out of the public types there.
     */
    private fun automatic(root: Path, loader: ClassLoader): List<String> {
        val packages = Files.walk(root).use { paths ->
            paths.filter { it.fileName?.toString()?.endsWith(".class") == true }
                .map { root.relativize(it.parent).toString().replace('/', '.') }
                .filter { it.isNotEmpty() && !it.startsWith("META-INF") }
                .distinct().toList()
        }
        return packages.flatMap { inPackage(root, it, loader) }
    }

    private fun inPackage(root: Path, pkg: String, loader: ClassLoader): List<String> =
        Files.list(root.resolve(pkg.replace('.', '/'))).use { files ->
            files.map { it.fileName.toString() }
                .filter { it.endsWith(".class") && it != "package-info.class" }
                .map { "$pkg." + it.removeSuffix(".class") }
                .filter { isPublic(Class.forName(it, false, loader)) }
                .toList()
        }

    private fun isPublic(type: Class<*>): Boolean {
        var c: Class<*>? = type
        while (c != null) {
            if (!Modifier.isPublic(c.modifiers)) return false
            c = c.enclosingClass
        }
        return !type.isAnonymousClass && !type.isSynthetic
    }
}
