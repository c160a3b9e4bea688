import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SurveyValues
import SurveyForms

/// The mode a file or folder survey creates gets (the umask narrowing it further): its
/// owner's alone, since what survey keeps holds respondents' answers (issue 31), unless the
/// folder it goes in is a team's shared one. A folder its owners share with a group (group
/// write, or the setgid bit that gives new files its group) gets files the group can use,
/// `0660` and `0770`; one shared by a default ACL gets `0666`/`0777`, so the ACL, not the
/// mode, decides (a `0600` file in it masks every ACL entry off). What exists is never
/// changed: `AtomicFile` keeps a replaced file's owner and mode.
enum NewFileMode {
    /// For a file created in `folder`.
    static func file(in folder: String) -> mode_t {
        switch sharing(of: folder) {
        case .none: 0o600
        case .group: 0o660
        case .acl: 0o666
        }
    }

    /// For a folder created in `parent`.
    static func folder(in parent: String) -> mode_t {
        switch sharing(of: parent) {
        case .none: 0o700
        case .group: 0o770
        case .acl: 0o777
        }
    }

    private enum Sharing { case none, group, acl }

    private static func sharing(of folder: String) -> Sharing {
        let path = folder.isEmpty ? "." : folder
        var status = stat()
        guard stat(path, &status) == 0 else { return .none }
        if let getxattr = Self.getxattr, getxattr(path, "system.posix_acl_default", nil, 0) > 0 { return .acl }
        return status.st_mode & (S_ISGID | S_IWGRP) != 0 ? .group : .none
    }

    /// glibc's `getxattr(2)` wrapper, found at run time: `<sys/xattr.h>` is not in the
    /// module Swift imports for glibc. nil where there is none (then no ACL is seen).
    private typealias GetXattr = @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int
    private static let getxattr: GetXattr? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "getxattr") else { return nil }
        return unsafeBitCast(symbol, to: GetXattr.self)
    }()
}
