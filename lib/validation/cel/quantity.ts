/**
 * A Kubernetes resource quantity (`500m`, `1Gi`, `1.5e3`) as an exact fraction, for the CEL
 * `quantity()` library. Exactness matters: `1Gi` and `1073741824` must compare equal.
 */
const BINARY: Record<string, bigint> = { Ki: 1n << 10n, Mi: 1n << 20n, Gi: 1n << 30n, Ti: 1n << 40n, Pi: 1n << 50n, Ei: 1n << 60n };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

export class Quantity {
  private constructor(
    readonly numerator: bigint,
    readonly denominator: bigint,
  ) {}

  static parse(text: string): Quantity | undefined {
    const match = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/.exec(text);
    if (!match) return undefined;
    const [, sign, number, suffix = ''] = match;
    const [whole, fraction = ''] = number.split('.');
    let numerator = BigInt((whole || '0') + fraction) * (sign === '-' ? -1n : 1n);
    let denominator = 10n ** BigInt(fraction.length);
    if (suffix in BINARY) {
      numerator *= BINARY[suffix];
    } else {
      const exponent = suffix in DECIMAL ? DECIMAL[suffix] : Number(suffix.slice(1));
      if (exponent >= 0) numerator *= 10n ** BigInt(exponent);
      else denominator *= 10n ** BigInt(-exponent);
    }
    return new Quantity(numerator, denominator);
  }

  static ofInteger(value: bigint): Quantity {
    return new Quantity(value, 1n);
  }

  sign(): number {
    return this.numerator === 0n ? 0 : this.numerator > 0n ? 1 : -1;
  }

  isInteger(): boolean {
    return this.numerator % this.denominator === 0n;
  }

  asInteger(): bigint | undefined {
    return this.isInteger() ? this.numerator / this.denominator : undefined;
  }

  asApproximateFloat(): number {
    return Number(this.numerator) / Number(this.denominator);
  }

  compareTo(other: Quantity): number {
    const left = this.numerator * other.denominator;
    const right = other.numerator * this.denominator;
    return left === right ? 0 : left < right ? -1 : 1;
  }

  add(other: Quantity): Quantity {
    return new Quantity(this.numerator * other.denominator + other.numerator * this.denominator, this.denominator * other.denominator);
  }

  negate(): Quantity {
    return new Quantity(-this.numerator, this.denominator);
  }
}
