//! Method arguments converted the way PHP converts arguments of internal
//! functions: coercion in weak mode, none under strict_types, and PHP's own
//! TypeError messages. The wrappers keep the raw zval; the method converts
//! it, knowing the argument's position.

use ext_php_rs::convert::{FromZvalMut, StubLiteral};
use ext_php_rs::ffi::zend_string;
use ext_php_rs::flags::DataType;
use ext_php_rs::types::{ZendHashTable, ZendStr, Zval};

use super::errors::{Fail, Result};
use super::zend;

/// A `string` parameter (binary-safe).
pub struct Str<'a>(&'a mut Zval);

/// An `int` parameter with a default.
pub enum Int<'a> {
    Given(&'a mut Zval),
    Default(i64),
}

/// An `int` parameter without a default (not nullable, so that PHP counts
/// it as required; a null given for it still reaches `get()`).
pub struct ReqInt<'a>(&'a mut Zval);

impl<'a> FromZvalMut<'a> for ReqInt<'a> {
    const TYPE: DataType = DataType::Long;
    fn from_zval_mut(zval: &'a mut Zval) -> Option<Self> {
        Some(Self(zval))
    }
}

impl ReqInt<'_> {
    pub fn get(self, num: u32) -> Result<i64> {
        Int::Given(self.0).get(num)
    }
}

/// A `float` parameter (ints accepted) with a default.
pub enum Float<'a> {
    Given(&'a mut Zval),
    Default(f64),
}

impl<'a> FromZvalMut<'a> for Str<'a> {
    const TYPE: DataType = DataType::String;
    fn from_zval_mut(zval: &'a mut Zval) -> Option<Self> {
        Some(Self(zval))
    }
}

// NULLABLE only lets an explicit null reach `get()`, which treats it as PHP
// does (deprecated and coerced in weak mode, a TypeError under strict_types).
// These parameters always have defaults, so arity is unchanged; fixups.rs
// clears the nullable bit that this sets in the arginfo.
impl<'a> FromZvalMut<'a> for Int<'a> {
    const TYPE: DataType = DataType::Long;
    const NULLABLE: bool = true;
    fn from_zval_mut(zval: &'a mut Zval) -> Option<Self> {
        Some(Self::Given(zval))
    }
}

impl<'a> FromZvalMut<'a> for Float<'a> {
    const TYPE: DataType = DataType::Double;
    const NULLABLE: bool = true;
    fn from_zval_mut(zval: &'a mut Zval) -> Option<Self> {
        Some(Self::Given(zval))
    }
}

impl From<i64> for Int<'_> {
    fn from(v: i64) -> Self {
        Self::Default(v)
    }
}

impl From<f64> for Float<'_> {
    fn from(v: f64) -> Self {
        Self::Default(v)
    }
}

/// Only defaults are ever rendered (into arginfo and the stub).
impl StubLiteral for Int<'_> {
    fn stub_literal(&self) -> String {
        match self {
            Self::Default(v) => v.to_string(),
            Self::Given(_) => String::new(),
        }
    }
}

impl StubLiteral for Float<'_> {
    fn stub_literal(&self) -> String {
        match self {
            Self::Default(v) => format!("{v:?}"),
            Self::Given(_) => String::new(),
        }
    }
}

fn wrong_type(num: u32, expected: std::ffi::c_int, zval: &mut Zval) -> Fail {
    // SAFETY: called during the method call whose argument `num` is `zval`.
    unsafe { zend::zend_wrong_parameter_type_error(num, expected, zval) };
    Fail::Thrown
}

impl<'a> Str<'a> {
    pub fn get(self, num: u32) -> Result<&'a [u8]> {
        let zval = self.0;
        if zval.is_string() {
            return Ok(zval.zend_str().map(ZendStr::as_bytes).unwrap_or_default());
        }
        let mut dest: *mut zend_string = std::ptr::null_mut();
        // SAFETY: PHP's weak-mode conversion; on success `dest` points at the
        // string now stored in the argument slot, which outlives the call.
        if unsafe { zend::zend_parse_arg_str_slow(zval, &mut dest, num) } && !dest.is_null() {
            return Ok(unsafe { &*dest.cast::<ZendStr>() }.as_bytes());
        }
        Err(wrong_type(num, zend::Z_EXPECTED_STRING, zval))
    }
}

impl Int<'_> {
    pub fn get(self, num: u32) -> Result<i64> {
        match self {
            Self::Default(v) => Ok(v),
            Self::Given(zval) => {
                if let Some(v) = zval.long() {
                    return Ok(v);
                }
                let mut dest = 0i64;
                // SAFETY: PHP's weak-mode conversion of argument `num`.
                if unsafe { zend::zend_parse_arg_long_slow(zval, &mut dest, num) } {
                    return Ok(dest);
                }
                Err(wrong_type(num, zend::Z_EXPECTED_LONG, zval))
            }
        }
    }
}

impl Float<'_> {
    pub fn get(self, num: u32) -> Result<f64> {
        match self {
            Self::Default(v) => Ok(v),
            Self::Given(zval) => {
                if let Some(v) = zval.double() {
                    return Ok(v);
                }
                if let Some(v) = zval.long() {
                    return Ok(v as f64);
                }
                let mut dest = 0f64;
                // SAFETY: PHP's weak-mode conversion of argument `num`.
                if unsafe { zend::zend_parse_arg_double_slow(zval, &mut dest, num) } {
                    return Ok(dest);
                }
                Err(wrong_type(num, zend::Z_EXPECTED_DOUBLE, zval))
            }
        }
    }
}

/// An `array` parameter (PHP never coerces to array).
pub struct Arr<'a>(&'a mut Zval);

impl<'a> FromZvalMut<'a> for Arr<'a> {
    const TYPE: DataType = DataType::Array;
    fn from_zval_mut(zval: &'a mut Zval) -> Option<Self> {
        Some(Self(zval))
    }
}

impl<'a> Arr<'a> {
    pub fn get(self, num: u32) -> Result<&'a ZendHashTable> {
        let zval: &'a mut Zval = self.0;
        if !zval.is_array() {
            return Err(wrong_type(num, zend::Z_EXPECTED_ARRAY, zval));
        }
        let zval: &'a Zval = zval;
        zval.array().ok_or_else(|| Fail::Value(format!("argument #{num} is not a readable array")))
    }
}
