#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SurveyValues
import SurveyForms

/// The owner, group and permission bits of a file a save replaces. In a shared team folder
/// (mode 770, group "field") a save by one member used to hand the document to that member
/// and their own group, and its owner could no longer read it; root saving a user's file made
/// it root's. A replacement file gets all three back, or the save takes another way.
struct FileOwner: Equatable {
    let user: uid_t
    let group: gid_t
    let mode: mode_t

    /// Thrown when the replacement cannot be given the owner or group: only root may give a
    /// file to another user, and others may only choose groups they belong to.
    struct CannotKeep: Error {}

    init(_ status: stat) {
        user = status.st_uid
        group = status.st_gid
        mode = status.st_mode & 0o7777
    }

    /// Owner and group first: `fchown` clears set-id bits, which the mode then restores.
    func apply(to fd: Int32) throws {
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw SystemError("keep owner") }
        if status.st_uid != user || status.st_gid != group {
            if fchown(fd, user, group) != 0 {
                if [EPERM, EINVAL].contains(errno) { throw CannotKeep() }
                throw SystemError("keep owner")
            }
        }
        if fchmod(fd, mode) != 0 { throw SystemError("keep permissions") }
    }
}
