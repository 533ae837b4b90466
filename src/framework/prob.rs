//! Exact probabilities as fractions, for the odds previews.

use std::fmt;
use std::ops::{Add, Mul, Sub};

use serde::{Deserialize, Serialize};

/// A non-negative rational number in lowest terms.
///
/// ```
/// use tanktable::framework::Fraction;
/// let half = Fraction::new(3, 6);
/// assert_eq!(half, Fraction::new(1, 2));
/// assert_eq!((half * half).to_string(), "1/4");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Fraction {
    num: u64,
    den: u64,
}

impl Fraction {
    pub const ZERO: Fraction = Fraction { num: 0, den: 1 };
    pub const ONE: Fraction = Fraction { num: 1, den: 1 };

    /// `num / den` in lowest terms. A zero denominator gives zero.
    #[must_use]
    pub fn new(num: u64, den: u64) -> Self {
        if den == 0 || num == 0 {
            return Self::ZERO;
        }
        let g = gcd(num, den);
        Self {
            num: num / g,
            den: den / g,
        }
    }

    /// The chance that a d6 shows `target` or more (a natural roll, 1 to 6).
    #[must_use]
    pub fn d6_at_least(target: u8) -> Self {
        let faces = 7u64.saturating_sub(u64::from(target.clamp(1, 7)));
        Self::new(faces, 6)
    }

    #[must_use]
    pub const fn numerator(self) -> u64 {
        self.num
    }

    #[must_use]
    pub const fn denominator(self) -> u64 {
        self.den
    }

    /// The value as a float.
    #[must_use]
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// `1 - self`, saturating at zero.
    #[must_use]
    pub fn complement(self) -> Self {
        Self::ONE - self
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

impl Add for Fraction {
    type Output = Fraction;
    fn add(self, rhs: Self) -> Self {
        let g = gcd(self.den, rhs.den);
        let den = self.den / g * rhs.den;
        Fraction::new(self.num * (den / self.den) + rhs.num * (den / rhs.den), den)
    }
}

impl Sub for Fraction {
    type Output = Fraction;
    fn sub(self, rhs: Self) -> Self {
        let g = gcd(self.den, rhs.den);
        let den = self.den / g * rhs.den;
        let a = self.num * (den / self.den);
        let b = rhs.num * (den / rhs.den);
        Fraction::new(a.saturating_sub(b), den)
    }
}

impl Mul for Fraction {
    type Output = Fraction;
    fn mul(self, rhs: Self) -> Self {
        let g1 = gcd(self.num, rhs.den);
        let g2 = gcd(rhs.num, self.den);
        Fraction::new(
            (self.num / g1) * (rhs.num / g2),
            (self.den / g2) * (rhs.den / g1),
        )
    }
}

impl std::iter::Sum for Fraction {
    fn sum<I: Iterator<Item = Fraction>>(iter: I) -> Self {
        iter.fold(Fraction::ZERO, Add::add)
    }
}

impl fmt::Display for Fraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic() {
        let a = Fraction::new(1, 6);
        let b = Fraction::new(1, 3);
        assert_eq!(a + b, Fraction::new(1, 2));
        assert_eq!(b - a, a);
        assert_eq!(a - b, Fraction::ZERO);
        assert_eq!(a * b, Fraction::new(1, 18));
        assert_eq!(Fraction::d6_at_least(4), Fraction::new(1, 2));
        assert_eq!(Fraction::d6_at_least(7), Fraction::ZERO);
        assert_eq!(Fraction::d6_at_least(1), Fraction::ONE);
        assert_eq!(Fraction::new(2, 4).to_string(), "1/2");
    }
}
