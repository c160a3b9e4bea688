import FoundationEssentials
import Dispatch
import SurveyValues
import SurveyStorage

/// Background work, one shape for all of it (issue 29): a job is a closure run on its
/// lane's serial queue, which posts what it finds to the `Mailbox`. A lane runs one job at a
/// time, in order. Starting a job with `replacing` cancels the lane's earlier jobs, queued or
/// running: their `isCancelled` turns true, what they post from then on is dropped, and what
/// they posted and the loop has not taken yet is taken back, so only the newest result is
/// taken in (the search for the query typed last, the index of the
/// document open now). Rejected: a class per worker (five of them, each with its own lock,
/// inbox, busy flag and wait, and the same bugs to fix five times).
final class BackgroundJobs: @unchecked Sendable {
    /// The kinds of work, each on its own serial queue.
    enum Lane: String, Sendable, CaseIterable {
        /// Counting large documents for the documents list: one at a time keeps memory bounded.
        case counting
        /// Building the `/` index.
        case searchIndex
        /// Finishing a `/` search.
        case search
        /// F9's sync.
        case sync
        /// Rewriting the `.plist` behind the journal (`DocumentWriter`).
        case writing

        /// The mail its jobs leave, when a newer job makes it stale (a search's, an index's).
        var replacedMail: Mail.Kind? {
            switch self {
            case .searchIndex: .searchIndexBuilt
            case .search: .searchFinished
            case .counting, .sync, .writing: nil
            }
        }

        var qos: DispatchQoS {
            switch self {
            case .counting: .utility
            case .searchIndex, .search, .sync, .writing: .userInitiated
            }
        }
    }

    /// What a running job knows of itself.
    struct Job: Sendable {
        let lane: Lane
        fileprivate let generation: Int
        fileprivate let jobs: BackgroundJobs

        /// A newer job replaced this one (or its lane was cancelled): stop, post nothing.
        var isCancelled: Bool { jobs.generation(of: lane) != generation }

        /// Leaves `mail` for the loop, unless this job has been cancelled.
        func post(_ mail: Mail) {
            jobs.post(mail, from: self)
        }
    }

    let mailbox: Mailbox
    private let lock = Lock()
    private var generations: [Lane: Int] = [:]
    private var pending: [Lane: Int] = [:]
    private let queues: [Lane: DispatchQueue]
    private let groups: [Lane: DispatchGroup]

    init(mailbox: Mailbox) {
        self.mailbox = mailbox
        var queues: [Lane: DispatchQueue] = [:]
        var groups: [Lane: DispatchGroup] = [:]
        for lane in Lane.allCases {
            queues[lane] = DispatchQueue(label: "survey.\(lane.rawValue)", qos: lane.qos)
            groups[lane] = DispatchGroup()
        }
        self.queues = queues
        self.groups = groups
    }

    /// Runs `work` on `lane`'s queue after the jobs before it. With `replacing`, those jobs
    /// are cancelled first.
    func start(_ lane: Lane, replacing: Bool = false, _ work: @escaping @Sendable (Job) -> Void) {
        let job = lock.withLock { () -> Job in
            if replacing { retire(lane) }
            pending[lane, default: 0] += 1
            return Job(lane: lane, generation: generations[lane, default: 0], jobs: self)
        }
        let group = groups[lane]!
        group.enter()
        queues[lane]!.async { [self] in
            if !job.isCancelled { work(job) }
            lock.withLock { pending[lane, default: 0] -= 1 }
            group.leave()
        }
    }

    /// Cancels `lane`'s jobs, queued or running.
    func cancel(_ lane: Lane) {
        lock.withLock { retire(lane) }
    }

    /// Cancels `lane`'s jobs (with the lock held), and takes back their mail not yet taken:
    /// a post checks its job's generation under the mailbox's lock, so none slips in after.
    private func retire(_ lane: Lane) {
        generations[lane, default: 0] += 1
        if let kind = lane.replacedMail { mailbox.discard(kind) }
    }

    fileprivate func generation(of lane: Lane) -> Int {
        lock.withLock { generations[lane, default: 0] }
    }

    /// Leaves a job's mail unless the job was cancelled: the check and the leaving are one step
    /// under this lock (taken before the mailbox's, as `retire` takes them), so no stale result
    /// slips in after a cancel.
    fileprivate func post(_ mail: Mail, from job: Job) {
        let posted = lock.withLock { () -> Bool in
            guard generations[job.lane, default: 0] == job.generation else { return false }
            mailbox.append(mail)
            return true
        }
        if posted { mailbox.wake.signal() }
    }

    /// Jobs of `lane` queued or running.
    func isBusy(_ lane: Lane) -> Bool { lock.withLock { pending[lane, default: 0] > 0 } }

    /// Any job queued or running.
    var isBusy: Bool { lock.withLock { pending.values.contains { $0 > 0 } } }

    /// Blocks until `lane` has no job queued or running (tests, quitting).
    func waitUntilIdle(_ lane: Lane) { groups[lane]!.wait() }
}
