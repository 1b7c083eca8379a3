//! Typed calls: a function called with structured values
//! ([`abi::Value`]), checked against its signature, flattened to runtime
//! values, run, and its results read back and rebuilt.
//!
//! Scalars (`i1` … `i64`, `ui8` … `ui64`, `f32`, `f64`) and chains are
//! converted here; other runtime types through the [`ValueConverter`]
//! their kernel library registered (`!t.tensor`: dense host tensors).

use std::collections::BTreeMap;
use std::sync::Arc;

use super::registry::ValueConverter;
use super::runner::{LeakReport, Runner, RunnerError};
use super::{Function, Observer};
use crate::abi::call::{CallError, CallSignature};
use crate::abi::{self, Value};
use crate::runtime::{AsyncValue, Chain, HostContext};

/// Why a typed call failed.
#[derive(Debug, thiserror::Error)]
pub enum TypedCallError {
    /// The runner refused the call.
    #[error(transparent)]
    Runner(#[from] RunnerError),
    /// The function's signature metadata does not fit it.
    #[error("function '{function}' has an unusable signature: {message}")]
    Signature {
        /// The function.
        function: String,
        /// What is wrong.
        message: String,
    },
    /// The arguments do not fit the signature.
    #[error("function '{function}': {error}")]
    Arguments {
        /// The function.
        function: String,
        /// Which argument, what was expected and what was given.
        error: CallError,
    },
    /// A flat argument has no runtime form of the function's type.
    #[error("function '{function}': argument {index} ({type_name}): {message}")]
    Conversion {
        /// The function.
        function: String,
        /// The flat argument.
        index: usize,
        /// Its runtime type.
        type_name: String,
        /// Why.
        message: String,
    },
    /// A result is an error value, or has no call value.
    #[error("function '{function}': result {index}: {message}")]
    Result {
        /// The function.
        function: String,
        /// The flat result.
        index: usize,
        /// The error, or why the value cannot be read.
        message: String,
    },
}

/// The values a typed call returned, and what it left alive.
#[derive(Debug, Clone, PartialEq)]
pub struct TypedResults {
    /// The structured results.
    pub values: Vec<Value>,
    /// What the call left alive.
    pub leaks: LeakReport,
}

impl Runner {
    /// Calls `function` with `args`, checked against its signature
    /// (arity, types, shapes; errors name the argument, the expected and
    /// the given type) and flattened through its structure, and returns
    /// its results rebuilt as structured values.
    pub fn call_typed(
        &self,
        function: &Function,
        args: &[Value],
    ) -> Result<Vec<Value>, TypedCallError> {
        self.call_typed_with(function, args, &BTreeMap::new(), None)
            .map(|r| r.values)
    }

    /// [`call_typed`](Self::call_typed) with arguments also passed by
    /// keyword (the `named` records of reflection) and an observer,
    /// returning also what the call left alive.
    pub fn call_typed_with(
        &self,
        function: &Function,
        args: &[Value],
        keywords: &BTreeMap<String, Value>,
        observer: Option<Arc<dyn Observer>>,
    ) -> Result<TypedResults, TypedCallError> {
        let name = function.name().to_string();
        let signature = self.call_signature(function)?;
        let flat = signature
            .flatten_with_keywords(args, keywords)
            .map_err(|error| TypedCallError::Arguments {
                function: name.clone(),
                error,
            })?;
        let info = function.info();
        let mut runtime_args = Vec::with_capacity(flat.len());
        for (index, (value, type_name)) in flat.iter().zip(&info.argument_types).enumerate() {
            let converted =
                to_runtime(value, type_name, self.host(), self.registry()).map_err(|message| {
                    TypedCallError::Conversion {
                        function: name.clone(),
                        index,
                        type_name: type_name.clone(),
                        message,
                    }
                })?;
            runtime_args.push(converted);
        }
        let call = self.call(function, &runtime_args, observer)?;
        let read: Result<Vec<Value>, TypedCallError> = call
            .results()
            .iter()
            .zip(&info.result_types)
            .enumerate()
            .map(|(index, (value, type_name))| {
                from_runtime(value, type_name, self.registry()).map_err(|message| {
                    TypedCallError::Result {
                        function: name.clone(),
                        index,
                        message,
                    }
                })
            })
            .collect();
        // The arguments are released first: what is still alive after
        // the call is a leak.
        drop(runtime_args);
        let leaks = call.finish();
        let values = signature
            .rebuild(read?)
            .map_err(|error| TypedCallError::Arguments {
                function: name.clone(),
                error,
            })?;
        Ok(TypedResults { values, leaks })
    }

    /// The call signature of `function`.
    pub fn call_signature(&self, function: &Function) -> Result<CallSignature, TypedCallError> {
        function
            .program()
            .call_signature(function.index())
            .map_err(|message| TypedCallError::Signature {
                function: function.name().to_string(),
                message,
            })
    }
}

/// The runtime value of the flat argument `value` of type `type_name`.
fn to_runtime(
    value: &Value,
    type_name: &str,
    host: &HostContext,
    registry: &super::KernelRegistry,
) -> Result<AsyncValue, String> {
    let mismatch = || format!("expected {type_name}, given {}", value.describe());
    let scalar = match (type_name, value) {
        ("i1", Value::I1(v)) => AsyncValue::available(*v),
        ("i8", Value::I8(v)) => AsyncValue::available(*v),
        ("i16", Value::I16(v)) => AsyncValue::available(*v),
        ("i32", Value::I32(v)) => AsyncValue::available(*v),
        ("i64", Value::I64(v)) => AsyncValue::available(*v),
        ("ui8", Value::U8(v)) => AsyncValue::available(*v),
        ("ui16", Value::U16(v)) => AsyncValue::available(*v),
        ("ui32", Value::U32(v)) => AsyncValue::available(*v),
        ("ui64", Value::U64(v)) => AsyncValue::available(*v),
        ("f32", Value::F32(v)) => AsyncValue::available(*v),
        ("f64", Value::F64(v)) => AsyncValue::available(*v),
        (abi::raw::CHAIN, Value::Ref(_) | Value::Null) => AsyncValue::available(Chain),
        _ => {
            let converter: Option<ValueConverter> = registry.value_converter(type_name);
            return match converter {
                Some(converter) => (converter.to_runtime)(value, host),
                None if value.scalar_type().is_some()
                    || abi::ElementType::from_mlir_name(type_name).is_some() =>
                {
                    Err(mismatch())
                }
                None => Err(format!(
                    "values of type {type_name} cannot be made from call values"
                )),
            };
        }
    };
    Ok(scalar)
}

/// The call value of the available result `value` of type `type_name`.
fn from_runtime(
    value: &AsyncValue,
    type_name: &str,
    registry: &super::KernelRegistry,
) -> Result<Value, String> {
    if let Some(diagnostic) = value.error_diagnostic() {
        return Err(diagnostic.message.clone());
    }
    let get_error = |e: crate::runtime::GetError<'_>| e.to_string();
    Ok(match type_name {
        "i1" => Value::I1(*value.get::<bool>().map_err(get_error)?),
        "i8" => Value::I8(*value.get::<i8>().map_err(get_error)?),
        "i16" => Value::I16(*value.get::<i16>().map_err(get_error)?),
        "i32" => Value::I32(*value.get::<i32>().map_err(get_error)?),
        "i64" => Value::I64(*value.get::<i64>().map_err(get_error)?),
        "ui8" => Value::U8(*value.get::<u8>().map_err(get_error)?),
        "ui16" => Value::U16(*value.get::<u16>().map_err(get_error)?),
        "ui32" => Value::U32(*value.get::<u32>().map_err(get_error)?),
        "ui64" => Value::U64(*value.get::<u64>().map_err(get_error)?),
        "f32" => Value::F32(*value.get::<f32>().map_err(get_error)?),
        "f64" => Value::F64(*value.get::<f64>().map_err(get_error)?),
        other => match registry.value_converter(other) {
            Some(converter) => (converter.from_runtime)(value)?,
            None => Value::Ref(other.to_string()),
        },
    })
}
