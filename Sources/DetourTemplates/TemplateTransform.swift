import Foundation

/// swift-mustache's transforms, `{{#empty(list)}}`, `{{count(list)}}`, `{{index()}}`…, on typed
/// values. A transform a value does not have gives nothing, as there.
enum TemplateTransform {
    static func apply(_ name: String, to value: TemplateData) -> TemplateData? {
        switch value {
        case .text(let text):
            switch name {
            case "empty": return .flag(text.isEmpty)
            case "capitalized": return .text(text.capitalized)
            case "lowercased": return .text(text.lowercased())
            case "uppercased": return .text(text.uppercased())
            case "reversed": return .text(String(text.reversed()))
            default: return nil
            }
        case .number(let number):
            switch name {
            case "equalzero": return .flag(number == 0)
            case "plusone": return .number(number + 1)
            case "minusone": return .number(number - 1)
            case "even": return .flag(number & 1 == 0)
            case "odd": return .flag(number & 1 == 1)
            default: return nil
            }
        case .list(let items):
            switch name {
            case "first": return items.first
            case "last": return items.last
            case "reversed": return .list(items.reversed())
            case "count": return .number(items.count)
            case "empty": return .flag(items.isEmpty)
            default: return nil
            }
        case .generated(let list):
            switch name {
            case "first": return list.isEmpty ? nil : list[0]
            case "last": return list.isEmpty ? nil : list[list.count - 1]
            case "reversed": return .list(list.items.reversed())
            case "count": return .number(list.count)
            case "empty": return .flag(list.isEmpty)
            default: return nil
            }
        case .fields(let fields):
            return apply(name, to: .object(fields.dictionary))
        case .object(let fields):
            switch name {
            case "count": return .number(fields.count)
            case "empty": return .flag(fields.isEmpty)
            // swift-mustache gives `enumerated` in the dictionary's own order; sorted is steadier.
            case "enumerated", "sorted":
                return .list(fields.sorted { $0.key < $1.key }.map { .object(["key": .text($0.key), "value": $0.value]) })
            default: return nil
            }
        case .flag, .deferred:
            return nil
        }
    }

    static func apply(_ name: String, to position: TemplateRenderer.Position) -> TemplateData? {
        switch name {
        case "first": .flag(position.index == 0)
        case "last": .flag(position.isLast)
        case "index": .number(position.index)
        case "even": .flag(position.index & 1 == 0)
        case "odd": .flag(position.index & 1 == 1)
        default: nil
        }
    }
}
