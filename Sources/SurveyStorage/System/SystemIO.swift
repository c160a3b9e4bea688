#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SurveyValues
import SurveyForms

// The C library's calls under names no type shadows: inside types that have their own `write`,
// `open` or `rename` (AtomicFile, DocumentStore, FileSystem) the bare names would mean those.
// At file scope they can only mean the C library's, whichever one this platform imports.

func systemRead(_ fd: Int32, _ pointer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, pointer, count) }

func systemWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, pointer, count) }

func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }

func systemClose(_ fd: Int32) -> Int32 { close(fd) }

func systemRename(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> Int32 { rename(from, to) }

func systemLink(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> Int32 { link(from, to) }

func systemUnlink(_ path: UnsafePointer<CChar>) -> Int32 { unlink(path) }
