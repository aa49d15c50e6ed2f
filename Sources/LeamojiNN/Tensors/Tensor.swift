/// A dense float32 tensor: a shape and its elements in row-major order.
///
/// Images and feature maps use NCHW (batch, channels, height, width) or, for one sample, CHW.
/// The struct is a plain value (copy-on-write through its array), so it is `Sendable` and can be
/// handed between threads freely.
public struct Tensor: Equatable, Sendable, CustomStringConvertible {
  /// The size of each dimension, outermost first.
  public private(set) var shape: [Int]
  /// The elements, row-major; `data.count == shape.reduce(1, *)`.
  public var data: [Float]

  /// A tensor from existing elements.
  /// - Precondition: `data.count` equals the product of `shape` (a programming error otherwise).
  public init(shape: [Int], data: [Float]) {
    precondition(shape.allSatisfy { $0 >= 0 }, "negative dimension in \(shape)")
    precondition(
      Tensor.elementCount(shape) == data.count, "\(data.count) elements for shape \(shape)")
    self.shape = shape
    self.data = data
  }

  /// A tensor of the given shape with every element set to `value` (zero by default).
  public init(shape: [Int], repeating value: Float = 0) {
    precondition(shape.allSatisfy { $0 >= 0 }, "negative dimension in \(shape)")
    self.shape = shape
    self.data = [Float](repeating: value, count: Tensor.elementCount(shape))
  }

  /// Total number of elements.
  public var count: Int { data.count }

  /// Number of dimensions.
  public var rank: Int { shape.count }

  /// The same elements seen with another shape of equal element count.
  public func reshaped(_ newShape: [Int]) -> Tensor {
    Tensor(shape: newShape, data: data)
  }

  /// Element `index` of the outermost dimension, e.g. sample `index` of an NCHW batch.
  public func slice(_ index: Int) -> Tensor {
    precondition(rank >= 1 && index >= 0 && index < shape[0], "slice \(index) out of \(shape)")
    let inner = Array(shape.dropFirst())
    let n = Tensor.elementCount(inner)
    return Tensor(shape: inner, data: Array(data[(index * n)..<((index + 1) * n)]))
  }

  /// Tensors of identical shape joined along a new outermost dimension (samples → batch).
  public static func stack(_ items: [Tensor]) -> Tensor {
    guard let first = items.first else { return Tensor(shape: [0]) }
    var all = [Float]()
    all.reserveCapacity(first.count * items.count)
    for item in items {
      precondition(item.shape == first.shape, "cannot stack \(item.shape) with \(first.shape)")
      all.append(contentsOf: item.data)
    }
    return Tensor(shape: [items.count] + first.shape, data: all)
  }

  /// True when every element is finite (no NaN, no infinity).
  public var isFinite: Bool { data.allSatisfy { $0.isFinite } }

  /// The product of the dimensions of `shape` (1 for a scalar shape `[]`).
  public static func elementCount(_ shape: [Int]) -> Int { shape.reduce(1, *) }

  /// The product of the dimensions, or nil when it would overflow `Int` or a dimension is
  /// negative. Used wherever a shape comes from outside (files, descriptions).
  public static func checkedElementCount(_ shape: [Int]) -> Int? {
    var total = 1
    for d in shape {
      guard d >= 0 else { return nil }
      let (p, overflow) = total.multipliedReportingOverflow(by: d)
      if overflow { return nil }
      total = p
    }
    return total
  }

  public var description: String { "Tensor\(shape)" }
}
