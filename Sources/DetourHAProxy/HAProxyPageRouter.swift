import DetourDiagnostics

/// The routes of one frontend for the pages its visitors are redirected to, each page's path
/// walked once: thousands of backends may send visitors to the same page.
///
/// When the path alone does not decide the route, the visitor's first request still tells:
/// it reached the backend that failed, and the page's own request shares its Host, address
/// and connection. A rule that reads only those is met by both requests alike.
struct HAProxyPageRouter {
    let entry: HAProxyProxy
    let model: HAProxyModel
    private var walks: [String: Walk] = [:]

    /// What the routes say of one path, up to the first that takes it.
    private struct Walk {
        /// What the path alone decides.
        var decided: HAProxyPageRoute?
        /// The first `use_backend` the path takes.
        var taken: HAProxyPageRoute?
        /// A rule before it that the path leaves open and that reads more than both requests share.
        var blocked = false
        /// By backend name: the first rule before `taken` that reads only what both requests share.
        var shared: [String: HAProxyRoute] = [:]
        /// Backends that a rule before `taken` sends requests to by their path, not the page's.
        var byOtherPaths = Set<String>()
    }

    init(_ entry: HAProxyProxy, in model: HAProxyModel) {
        self.entry = entry
        self.model = model
    }

    /// Where the page's own request goes when the path alone decides it.
    mutating func route(_ path: String) -> HAProxyPageRoute? {
        walk(path).decided
    }

    /// Where the page's own request goes, given that the visitor's request reached `failing`.
    mutating func route(_ path: String, reaching failing: HAProxyProxy) -> HAProxyPageRoute? {
        let walk = walk(path)
        if let decided = walk.decided { return decided }
        guard !walk.blocked, !walk.byOtherPaths.contains(failing.name) else { return nil }
        var candidates: [HAProxyPageRoute] = []
        if let rule = walk.shared[failing.name], let route = HAProxyPageRoute.named(rule, in: model) { candidates.append(route) }
        if let taken = walk.taken {
            candidates.append(taken)
        } else if let fallback = entry.settings.defaultBackend, fallback.backend == failing.name, let route = HAProxyPageRoute.named(fallback, in: model) {
            // Past every rule: the visitor's request went the same way, so this is the backend that failed.
            candidates.append(route)
        } else if entry.settings.defaultBackend == nil, entry.kind == "listen", failing.isSection(entry) {
            candidates.append(HAProxyPageRoute(backend: entry, line: nil))
        }
        guard let first = candidates.first, candidates.allSatisfy({ $0.backend.isSection(first.backend) }) else { return nil }
        return first
    }

    /// One pass over the routes: each condition is evaluated once, for what the path decides
    /// and for what the visitor's request tells.
    private mutating func walk(_ path: String) -> Walk {
        if let known = walks[path] { return known }
        var walk = Walk()
        // A rule before the one that takes the path, which the path leaves open: from there on
        // the path alone decides nothing.
        var open = false
        var reachedTheEnd = true
        for rule in entry.settings.routes {
            let (outcome, onPath, shared) = HAProxyPathCondition.evaluate(rule.condition, path: path, acls: entry.settings.acls)
            if outcome == .yes {
                walk.taken = HAProxyPageRoute.named(rule, in: model)
                walk.blocked = walk.blocked || walk.taken == nil
                if !open { walk.decided = walk.taken }
                reachedTheEnd = false
                break
            }
            open = open || outcome == .maybe
            if rule.isDynamic {
                walk.blocked = true
            } else if outcome == .no, onPath {
                walk.byOtherPaths.insert(rule.backend)
            } else if outcome == .maybe {
                if onPath || !shared { walk.blocked = true } else if walk.shared[rule.backend] == nil { walk.shared[rule.backend] = rule }
            }
        }
        if reachedTheEnd, !open {
            if let fallback = entry.settings.defaultBackend {
                walk.decided = HAProxyPageRoute.named(fallback, in: model)
            } else if entry.kind == "listen" {
                walk.decided = HAProxyPageRoute(backend: entry, line: nil)
            }
        }
        walks[path] = walk
        return walk
    }
}
