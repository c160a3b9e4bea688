/// Terminal geometry in cells. Kept as plain value types so layout and hit-testing are
/// pure functions that tests can call with any size, including degenerate ones (0x0, 1x1).
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
    }
    public var description: String { "\(width)x\(height)" }
}

public struct Point: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public init(x: Int, y: Int) { self.x = x; self.y = y }
}

/// A rectangle that never has negative extent, so views can shrink it freely without
/// checking for underflow at every step.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width == 0 || height == 0 }
    public var description: String { "(\(x),\(y) \(width)x\(height))" }

    public func contains(_ p: Point) -> Bool {
        p.x >= x && p.x < maxX && p.y >= y && p.y < maxY
    }

    /// The rectangle shrunk by `n` cells on every side.
    public func inset(by n: Int) -> Rect {
        Rect(x: x + n, y: y + n, width: width - 2 * n, height: height - 2 * n)
    }

    /// The single row `dy` rows below the top, or an empty rect when outside.
    public func row(_ dy: Int) -> Rect {
        guard dy >= 0, dy < height else { return Rect(x: x, y: y, width: 0, height: 0) }
        return Rect(x: x, y: y + dy, width: width, height: 1)
    }

    public func intersection(_ other: Rect) -> Rect {
        let nx = max(x, other.x), ny = max(y, other.y)
        return Rect(x: nx, y: ny, width: min(maxX, other.maxX) - nx, height: min(maxY, other.maxY) - ny)
    }
}
