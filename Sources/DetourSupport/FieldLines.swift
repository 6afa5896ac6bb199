/// Lines of fields split at one byte, read and written as bytes: the build cache's files are
/// read by every rebuild, and splitting Swift strings took a tenth of a second for ten
/// thousand articles where walking the bytes takes milliseconds.
public enum FieldLines {
    /// Calls `body` with each line's fields (split at `separator`; no line feed in any),
    /// until it returns false; false then.
    @discardableResult
    public static func forEach(in bytes: [UInt8], separator: UInt8, _ body: (_ fields: [UnsafeBufferPointer<UInt8>]) -> Bool) -> Bool {
        bytes.withUnsafeBufferPointer { all in
            var fields: [UnsafeBufferPointer<UInt8>] = []
            var lineStart = 0
            while lineStart < all.count {
                var end = lineStart
                while end < all.count, all[end] != 0x0A { end += 1 }
                fields.removeAll(keepingCapacity: true)
                var fieldStart = lineStart
                for index in lineStart..<end where all[index] == separator {
                    fields.append(UnsafeBufferPointer(rebasing: all[fieldStart..<index]))
                    fieldStart = index + 1
                }
                fields.append(UnsafeBufferPointer(rebasing: all[fieldStart..<end]))
                if !body(fields) { return false }
                lineStart = end + 1
            }
            return true
        }
    }

    public static func string(_ field: UnsafeBufferPointer<UInt8>) -> String { String(decoding: field, as: UTF8.self) }

    /// A decimal integer, with an optional minus sign; nil for anything else.
    public static func integer(_ field: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        let negative = field.first == UInt8(ascii: "-")
        if negative { index = 1 }
        guard index < field.count else { return nil }
        var value = 0
        while index < field.count {
            let digit = Int(field[index]) - 48
            guard (0...9).contains(digit) else { return nil }
            value = value &* 10 &+ digit
            index += 1
        }
        return negative ? -value : value
    }

    /// Space-separated decimal integers.
    public static func integers(_ field: UnsafeBufferPointer<UInt8>) -> [Int]? {
        var values: [Int] = []
        var start = 0
        for index in 0...field.count where index == field.count || field[index] == UInt8(ascii: " ") {
            if index > start {
                guard let value = integer(UnsafeBufferPointer(rebasing: field[start..<index])) else { return nil }
                values.append(value)
            }
            start = index + 1
        }
        return values
    }

    /// Appends `value` in decimal.
    public static func append(_ value: Int, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits:
            (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(48 + magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { out.append(buffer[index]) }
        }
    }
}
