#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// `read` and `write` by their module names: inside types that have their own `write`
// (AtomicFile, DocumentStore) the bare names would mean those.

func systemRead(_ fd: Int32, _ pointer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.read(fd, pointer, count)
    #elseif canImport(Musl)
    return Musl.read(fd, pointer, count)
    #else
    return Darwin.read(fd, pointer, count)
    #endif
}

func systemWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(fd, pointer, count)
    #elseif canImport(Musl)
    return Musl.write(fd, pointer, count)
    #else
    return Darwin.write(fd, pointer, count)
    #endif
}
