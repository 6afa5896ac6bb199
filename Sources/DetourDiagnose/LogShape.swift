/// What a line no article explains looks like with its changing parts replaced (`N`,
/// `ADDRESS`, `PATH`) and its time left out: lines of one problem share a shape, so the most
/// frequent shapes tell an author which article to write next.
enum LogShape {
    /// Longest shape kept: past it lines of one problem still share their start.
    static let maximumLength = 240

    static func of(_ line: UnsafeBufferPointer<UInt8>) -> String {
        let start = LogTime.of(line)?.prefix ?? 0
        var body = line[start...].drop { $0 == UInt8(ascii: " ") }.prefix(maximumLength * 2)
        if body.count > maximumLength * 2 { body = body.prefix(maximumLength * 2) }
        var shape = ""
        for piece in LogPiece.cut(body) {
            switch piece {
            case .literal(let bytes): shape += String(decoding: bytes, as: UTF8.self)
            case .hole(let hole): shape += hole.placeholder
            }
        }
        return String(shape.prefix(maximumLength))
    }
}
