//! Typed kernel adapters: [`kernel!`](crate::kernel) turns a function whose
//! parameters are extractors ([`Argument<T>`], [`Out<T>`], [`Attribute<T>`],
//! ...) and whose return value is a result (a value, a tuple, `()` or a
//! `Result`) into a [`KernelFn`](super::KernelFn).
//!
//! Extractors take the frame's arguments, results, attributes and functions
//! in declaration order. A wrong argument type or a missing attribute
//! becomes an error value on every result (and a reported diagnostic), never
//! undefined behaviour.

use std::marker::PhantomData;
use std::ops::Deref;

use super::attribute::{ArrayAttr, AttrScalar, AttributeReader};
use super::context::ExecutionContext;
use super::frame::KernelFrame;
use super::function::Function;
use super::signature::{Signature, TypeName, VARIADIC};
use crate::format::{AttrType, Attribute as BefAttribute};
use crate::runtime::{
    AsyncValue, AsyncValueRef, Chain, Diagnostic, ErrorCode, GetError, HostContext,
};

/// Where the next extractor reads from.
#[derive(Default, Debug)]
pub struct Cursor {
    argument: usize,
    result: usize,
    attribute: usize,
    function: usize,
}

/// A kernel parameter built from the frame.
pub trait FromFrame<'f>: Sized {
    /// Reads this parameter from `frame` at `cursor`, advancing the cursor past what it took.
    fn from_frame(frame: &'f KernelFrame<'_>, cursor: &mut Cursor) -> Result<Self, Diagnostic>;

    /// Adds what this parameter takes from the frame to `signature`.
    fn describe(signature: &mut Signature);
}

fn next_argument<'f>(
    frame: &'f KernelFrame<'_>,
    cursor: &mut Cursor,
) -> Result<&'f AsyncValue, Diagnostic> {
    let index = cursor.argument;
    cursor.argument += 1;
    frame
        .arguments()
        .get(index)
        .ok_or_else(|| missing_argument(frame, index))
}

/// Kept out of line so that the kernels' hot paths carry no formatting.
#[cold]
#[inline(never)]
fn missing_argument(frame: &KernelFrame<'_>, index: usize) -> Diagnostic {
    Diagnostic::new(format!(
        "'{}' expects at least {} arguments but the program passes {}",
        frame.kernel_name(),
        index + 1,
        frame.arguments().len()
    ))
    .with_code(ErrorCode::InvalidArgument)
}

#[cold]
#[inline(never)]
fn argument_error(frame: &KernelFrame<'_>, index: usize, error: GetError<'_>) -> Diagnostic {
    Diagnostic::new(format!(
        "'{}' argument #{index}: {error}",
        frame.kernel_name()
    ))
    .with_code(ErrorCode::InvalidArgument)
}

fn next_attribute(frame: &KernelFrame<'_>, cursor: &mut Cursor) -> Result<u32, Diagnostic> {
    let index = cursor.attribute;
    cursor.attribute += 1;
    let attributes = frame.attribute_offsets();
    attributes.get(index).copied().ok_or_else(|| {
        Diagnostic::new(format!(
            "'{}' expects at least {} attributes but the program gives {}",
            frame.kernel_name(),
            index + 1,
            attributes.len()
        ))
        .with_code(ErrorCode::InvalidArgument)
    })
}

fn next_result(frame: &KernelFrame<'_>, cursor: &mut Cursor) -> Result<usize, Diagnostic> {
    let index = cursor.result;
    cursor.result += 1;
    if index < frame.num_results() {
        Ok(index)
    } else {
        Err(Diagnostic::new(format!(
            "'{}' produces at least {} results but the program declares {}",
            frame.kernel_name(),
            index + 1,
            frame.num_results()
        ))
        .with_code(ErrorCode::InvalidArgument))
    }
}

fn attribute_error(frame: &KernelFrame<'_>, message: String) -> Diagnostic {
    Diagnostic::new(format!("'{}': {message}", frame.kernel_name()))
        .with_code(ErrorCode::InvalidArgument)
}

/// An available argument of type `T`.
pub struct Argument<'f, T> {
    value: &'f AsyncValue,
    payload: &'f T,
}

impl<'f, T> Argument<'f, T> {
    /// The argument's AsyncValue (to forward it as a result, or keep it).
    pub fn value(&self) -> &'f AsyncValue {
        self.value
    }

    /// The argument's value.
    pub fn get(&self) -> &'f T {
        self.payload
    }
}

impl<T> Deref for Argument<'_, T> {
    type Target = T;
    #[inline(always)]
    fn deref(&self) -> &T {
        self.payload
    }
}

impl<'f, T: TypeName + Send + Sync + 'static> FromFrame<'f> for Argument<'f, T> {
    #[inline(always)]
    fn from_frame(frame: &'f KernelFrame<'_>, cursor: &mut Cursor) -> Result<Self, Diagnostic> {
        let index = cursor.argument;
        let value = next_argument(frame, cursor)?;
        match value.get::<T>() {
            Ok(payload) => Ok(Argument { value, payload }),
            Err(e) => Err(argument_error(frame, index, e)),
        }
    }

    fn describe(signature: &mut Signature) {
        signature.arguments.push(T::NAME.into());
    }
}

/// An argument of any type that may still be unavailable (for non-strict
/// kernels and kernels that forward values).
pub struct AnyArgument<'f>(&'f AsyncValue);

impl Deref for AnyArgument<'_> {
    type Target = AsyncValue;
    fn deref(&self) -> &AsyncValue {
        self.0
    }
}

impl<'f> FromFrame<'f> for AnyArgument<'f> {
    fn from_frame(frame: &'f KernelFrame<'_>, cursor: &mut Cursor) -> Result<Self, Diagnostic> {
        next_argument(frame, cursor).map(AnyArgument)
    }

    fn describe(signature: &mut Signature) {
        signature.arguments.push(AsyncValue::NAME.into());
    }
}

/// The arguments not taken by earlier extractors.
pub struct RemainingArguments<'f>(&'f [AsyncValue]);

impl Deref for RemainingArguments<'_> {
    type Target = [AsyncValue];
    fn deref(&self) -> &[AsyncValue] {
        self.0
    }
}

impl<'f> FromFrame<'f> for RemainingArguments<'f> {
    fn from_frame(frame: &'f KernelFrame<'_>, cursor: &mut Cursor) -> Result<Self, Diagnostic> {
        let rest = frame.arguments().get(cursor.argument..).unwrap_or_default();
        cursor.argument = frame.arguments().len();
        Ok(RemainingArguments(rest))
    }

    fn describe(signature: &mut Signature) {
        signature.arguments.push(VARIADIC.into());
    }
}

/// A result slot of type `T`.
pub struct Out<'f, T> {
    frame: &'f KernelFrame<'f>,
    index: usize,
    _marker: PhantomData<fn(T)>,
}

impl<'f, T: Send + Sync + 'static> Out<'f, T> {
    /// Makes the result an available `value`.
    #[inline]
    pub fn emplace(&self, value: T) {
        self.frame
            .set_result(self.index, AsyncValue::available(value));
    }

    /// Makes the result an existing value (e.g. an argument).
    pub fn set(&self, value: AsyncValue) {
        self.frame.set_result(self.index, value);
    }

    /// Makes the result a new unavailable value and returns it, to be
    /// completed later (possibly on another thread).
    pub fn allocate(&self) -> AsyncValueRef<T> {
        let value = AsyncValueRef::<T>::unconstructed();
        self.frame
            .set_result(self.index, value.clone().into_untyped());
        value
    }

    /// Reports `message` at the kernel and makes this result that error.
    pub fn set_error(&self, message: impl Into<String>) {
        let error = self.frame.emit_error(message);
        self.frame.set_result(self.index, error);
    }
}

impl<'f, T: TypeName> FromFrame<'f> for Out<'f, T> {
    fn from_frame(frame: &'f KernelFrame<'_>, cursor: &mut Cursor) -> Result<Self, Diagnostic> {
        let index = next_result(frame, cursor)?;
        // SAFETY-free variance: the frame outlives 'f by construction of the
        // extractor call; we only narrow its lifetime parameter.
        let frame: &'f KernelFrame<'f> = shorten(frame);
        Ok(Out {
            frame,
            index,
            _marker: PhantomData,
        })
    }

    fn describe(signature: &mut Signature) {
        signature.results.push(T::NAME.into());
    }
}

/// `KernelFrame<'a>` is covariant in `'a`, so a frame borrowed for `'f`
/// can be viewed with its parameter shortened to `'f`.
#[inline(always)]
fn shorten<'f, 'a: 'f>(frame: &'f KernelFrame<'a>) -> &'f KernelFrame<'f> {
    frame
}

/// The result slots not taken by earlier extractors.
pub struct RemainingResults<'f> {
    frame: &'f KernelFrame<'f>,
    start: usize,
}

impl<'f> RemainingResults<'f> {
    /// Number of results left to the kernel.
    pub fn len(&self) -> usize {
        self.frame.num_results() - self.start
    }

    /// Whether no result is left to the kernel.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Sets result `index` (counted from the first remaining one) to `value`.
    pub fn set(&self, index: usize, value: AsyncValue) {
        self.frame.set_result(self.start + index, value);
    }

    /// Sets result `index` (counted from the first remaining one) to an available `value`.
    pub fn emplace<T: Send + Sync + 'static>(&self, index: usize, value: T) {
        self.set(index, AsyncValue::available(value));
    }

    /// Makes result `index` a new unresolved indirect value, to be forwarded
    /// to the real value later.
    pub fn allocate_indirect(&self, index: usize) -> AsyncValue {
        let value = AsyncValue::indirect();
        self.set(index, value.clone());
        value
    }

    /// Sets every remaining result to `value`.
    pub fn set_all(&self, value: &AsyncValue) {
        for i in 0..self.len() {
            self.set(i, value.clone());
        }
    }

    /// The frame (for location and context).
    pub fn frame(&self) -> &'f KernelFrame<'f> {
        self.frame
    }
}

impl<'f> FromFrame<'f> for RemainingResults<'f> {
    fn from_frame(frame: &'f KernelFrame<'_>, cursor: &mut Cursor) -> Result<Self, Diagnostic> {
        let start = cursor.result.min(frame.num_results());
        cursor.result = frame.num_results();
        Ok(RemainingResults {
            frame: shorten(frame),
            start,
        })
    }

    fn describe(signature: &mut Signature) {
        signature.results.push(VARIADIC.into());
    }
}

/// A scalar attribute.
#[derive(Clone, Copy, Debug)]
pub struct Attribute<T>(pub T);

impl<T> Deref for Attribute<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<'f, T: AttrScalar> FromFrame<'f> for Attribute<T> {
    #[inline]
    fn from_frame(frame: &'f KernelFrame<'_>, cursor: &mut Cursor) -> Result<Self, Diagnostic> {
        let offset = next_attribute(frame, cursor)?;
        reader(frame)
            .scalar::<T>(offset)
            .map(Attribute)
            .map_err(|m| attribute_error(frame, m))
    }

    fn describe(signature: &mut Signature) {
        signature.attributes.push(T::NAME.into());
    }
}

fn reader<'f>(frame: &'f KernelFrame<'_>) -> AttributeReader<'f> {
    AttributeReader {
        section: frame.program.attribute_bytes(),
    }
}

/// A string attribute.
#[derive(Clone, Copy, Debug)]
pub struct StringAttribute<'f>(pub &'f str);

impl Deref for StringAttribute<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        self.0
    }
}

impl<'f> FromFrame<'f> for StringAttribute<'f> {
    fn from_frame(frame: &'f KernelFrame<'_>, cursor: &mut Cursor) -> Result<Self, Diagnostic> {
        let offset = next_attribute(frame, cursor)?;
        reader(frame)
            .string(offset)
            .map(StringAttribute)
            .map_err(|m| attribute_error(frame, m))
    }

    fn describe(signature: &mut Signature) {
        signature.attributes.push("string".into());
    }
}

/// The offsets of the attributes not taken by earlier extractors, for
/// kernels that read any number of them.
pub struct RemainingAttributes<'f>(&'f [u32]);

impl Deref for RemainingAttributes<'_> {
    type Target = [u32];
    fn deref(&self) -> &[u32] {
        self.0
    }
}

impl<'f> FromFrame<'f> for RemainingAttributes<'f> {
    fn from_frame(frame: &'f KernelFrame<'_>, cursor: &mut Cursor) -> Result<Self, Diagnostic> {
        let rest = frame
            .attribute_offsets()
            .get(cursor.attribute..)
            .unwrap_or_default();
        cursor.attribute = frame.attribute_offsets().len();
        Ok(RemainingAttributes(rest))
    }

    fn describe(signature: &mut Signature) {
        signature.attributes.push(VARIADIC.into());
    }
}

/// An array attribute of fixed-width elements.
pub struct ArrayAttribute<'f, T>(pub ArrayAttr<'f, T>);

impl<'f, T> Deref for ArrayAttribute<'f, T> {
    type Target = ArrayAttr<'f, T>;
    fn deref(&self) -> &ArrayAttr<'f, T> {
        &self.0
    }
}

impl<'f, T: AttrScalar> FromFrame<'f> for ArrayAttribute<'f, T> {
    fn from_frame(frame: &'f KernelFrame<'_>, cursor: &mut Cursor) -> Result<Self, Diagnostic> {
        let offset = next_attribute(frame, cursor)?;
        reader(frame)
            .array::<T>(offset)
            .map(ArrayAttribute)
            .map_err(|m| attribute_error(frame, m))
    }

    fn describe(signature: &mut Signature) {
        signature.attributes.push(format!("[{}]", T::NAME));
    }
}

/// A mixed or nested array attribute, decoded to a tree.
#[derive(Debug, Clone)]
pub struct AggregateAttribute(pub Vec<BefAttribute>);

impl<'f> FromFrame<'f> for AggregateAttribute {
    fn from_frame(frame: &'f KernelFrame<'_>, cursor: &mut Cursor) -> Result<Self, Diagnostic> {
        let offset = next_attribute(frame, cursor)?;
        match reader(frame).decode(offset, AttrType::AGGREGATE) {
            Ok(BefAttribute::Aggregate(elements)) => Ok(AggregateAttribute(elements)),
            Ok(_) => Err(attribute_error(
                frame,
                "expected an aggregate attribute".into(),
            )),
            Err(m) => Err(attribute_error(frame, m)),
        }
    }

    fn describe(signature: &mut Signature) {
        signature.attributes.push("[...]".into());
    }
}

/// How a signature spells a function attribute.
const FUNCTION: &str = "@function";

/// A function attribute (`@f`, or a region).
impl<'f> FromFrame<'f> for Function {
    fn from_frame(frame: &'f KernelFrame<'_>, cursor: &mut Cursor) -> Result<Self, Diagnostic> {
        let index = cursor.function;
        cursor.function += 1;
        frame.function(index).ok_or_else(|| {
            attribute_error(
                frame,
                format!(
                    "expects at least {} function attributes but the program gives {}",
                    index + 1,
                    frame.num_functions()
                ),
            )
        })
    }

    fn describe(signature: &mut Signature) {
        signature.attributes.push(FUNCTION.into());
    }
}

/// The function attributes not taken by earlier extractors.
pub struct RemainingFunctions(pub Vec<Function>);

impl Deref for RemainingFunctions {
    type Target = [Function];
    fn deref(&self) -> &[Function] {
        &self.0
    }
}

impl<'f> FromFrame<'f> for RemainingFunctions {
    fn from_frame(frame: &'f KernelFrame<'_>, cursor: &mut Cursor) -> Result<Self, Diagnostic> {
        let functions = (cursor.function..frame.num_functions())
            .filter_map(|i| frame.function(i))
            .collect();
        cursor.function = frame.num_functions();
        Ok(RemainingFunctions(functions))
    }

    fn describe(signature: &mut Signature) {
        signature.attributes.push(format!("{FUNCTION}, {VARIADIC}"));
    }
}

/// Reports errors at the kernel's location.
pub struct KernelErrorHandler<'f> {
    frame: &'f KernelFrame<'f>,
}

impl<'f> KernelErrorHandler<'f> {
    /// Reports `message` and makes every result not yet set an error.
    pub fn report_error(&self, message: impl Into<String>) {
        self.frame.report_error(message, ErrorCode::default());
    }

    /// As [`report_error`](Self::report_error) with an error code.
    pub fn report_error_with_code(&self, message: impl Into<String>, code: ErrorCode) {
        self.frame.report_error(message, code);
    }

    /// A reported error value at the kernel's location, for results
    /// completed later.
    pub fn emit_error(&self, message: impl Into<String>) -> AsyncValue {
        self.frame.emit_error(message)
    }

    /// The frame of the running kernel.
    pub fn frame(&self) -> &'f KernelFrame<'f> {
        self.frame
    }
}

impl<'f> FromFrame<'f> for KernelErrorHandler<'f> {
    fn from_frame(frame: &'f KernelFrame<'_>, _: &mut Cursor) -> Result<Self, Diagnostic> {
        Ok(KernelErrorHandler {
            frame: shorten(frame),
        })
    }

    fn describe(signature: &mut Signature) {
        // Context, not an operand.
        let _ = signature;
    }
}

impl<'f> FromFrame<'f> for &'f ExecutionContext {
    fn from_frame(frame: &'f KernelFrame<'_>, _: &mut Cursor) -> Result<Self, Diagnostic> {
        Ok(frame.ctx)
    }

    fn describe(signature: &mut Signature) {
        // Context, not an operand.
        let _ = signature;
    }
}

impl<'f> FromFrame<'f> for &'f HostContext {
    fn from_frame(frame: &'f KernelFrame<'_>, _: &mut Cursor) -> Result<Self, Diagnostic> {
        Ok(frame.ctx.host())
    }

    fn describe(signature: &mut Signature) {
        // Context, not an operand.
        let _ = signature;
    }
}

impl<'f> FromFrame<'f> for &'f KernelFrame<'f> {
    fn from_frame(frame: &'f KernelFrame<'_>, _: &mut Cursor) -> Result<Self, Diagnostic> {
        Ok(shorten(frame))
    }

    fn describe(signature: &mut Signature) {
        // Context, not an operand.
        let _ = signature;
    }
}

/// A single kernel result.
pub trait IntoResult: TypeName {
    /// The value as the async value a result register holds.
    fn into_value(self) -> AsyncValue;
}

macro_rules! available_result {
    ($($t:ty),* $(,)?) => {$(
        impl IntoResult for $t {
            #[inline(always)]
            fn into_value(self) -> AsyncValue {
                AsyncValue::available(self)
            }
        }
    )*};
}

available_result!(
    bool, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64, Chain, String
);

impl IntoResult for AsyncValue {
    fn into_value(self) -> AsyncValue {
        self
    }
}

impl<T: TypeName> TypeName for AsyncValueRef<T> {
    const NAME: &'static str = T::NAME;
}

impl<T: TypeName> IntoResult for AsyncValueRef<T> {
    fn into_value(self) -> AsyncValue {
        self.into()
    }
}

/// What a kernel returns: `()`, one result, a tuple of results, or a
/// `Result` whose error becomes every unset result.
pub trait IntoResults {
    /// Writes the values into the frame's results from `cursor` on.
    fn into_results(self, frame: &KernelFrame<'_>, cursor: &Cursor);

    /// Adds the results this return type fills to `signature`.
    fn describe(signature: &mut Signature);
}

impl IntoResults for () {
    #[inline(always)]
    fn into_results(self, _: &KernelFrame<'_>, _: &Cursor) {}

    fn describe(_: &mut Signature) {}
}

impl<T: IntoResult> IntoResults for T {
    #[inline(always)]
    fn into_results(self, frame: &KernelFrame<'_>, cursor: &Cursor) {
        frame.set_result(cursor.result, self.into_value());
    }

    fn describe(signature: &mut Signature) {
        signature.results.push(T::NAME.into());
    }
}

macro_rules! tuple_results {
    ($(($($name:ident $i:tt),+)),* $(,)?) => {$(
        impl<$($name: IntoResult),+> IntoResults for ($($name,)+) {
            fn into_results(self, frame: &KernelFrame<'_>, cursor: &Cursor) {
                $(frame.set_result(cursor.result + $i, self.$i.into_value());)+
            }

            fn describe(signature: &mut Signature) {
                $(signature.results.push($name::NAME.into());)+
            }
        }
    )*};
}

tuple_results!((A 0, B 1), (A 0, B 1, C 2), (A 0, B 1, C 2, D 3));

impl<R: IntoResults, E: Into<Diagnostic>> IntoResults for Result<R, E> {
    fn into_results(self, frame: &KernelFrame<'_>, cursor: &Cursor) {
        match self {
            Ok(results) => results.into_results(frame, cursor),
            Err(error) => frame.report(error.into()),
        }
    }

    fn describe(signature: &mut Signature) {
        R::describe(signature);
    }
}

/// Defines a kernel from a function whose parameters are extractors:
///
/// ```
/// use bef::exec::{Argument, Out};
/// bef::kernel! {
///     /// `tfrt.add.i32`
///     pub fn add_i32(a: Argument<i32>, b: Argument<i32>) -> i32 {
///         a.wrapping_add(*b)
///     }
/// }
/// bef::kernel! {
///     pub fn div_i32(a: Argument<i32>, b: Argument<i32>, q: Out<i32>, r: Out<i32>)
///         -> Result<(), String>
///     {
///         if *b == 0 { return Err("divide by zero".into()); }
///         q.emplace(*a / *b);
///         r.emplace(*a % *b);
///         Ok(())
///     }
/// }
/// assert_eq!(add_i32.signature().to_string(), "(i32, i32) -> (i32)");
/// assert_eq!(div_i32.signature().to_string(), "(i32, i32) -> (i32, i32)");
/// ```
///
/// A plain function becomes a constant [`Kernel`](crate::exec::Kernel) of
/// its name; a generic one (`fn relu<T: Number>(...)`, type parameters
/// with one bound each) a function returning one (`relu::<f32>()`). Either
/// is registered in a [`KernelRegistry`](crate::exec::KernelRegistry).
/// Returned values fill the results after those taken by `Out`
/// parameters. The kernel's signature is read off the parameter and
/// return types, so it always matches what the kernel takes.
#[macro_export]
macro_rules! kernel {
    ($(#[$meta:meta])* $vis:vis fn $name:ident < $($g:ident : $bound:path),+ $(,)? >
        ( $($arg:ident : $ty:ty),* $(,)? ) $(-> $ret:ty)? $body:block) => {
        $(#[$meta])*
        $vis fn $name<$($g: $bound),+>() -> $crate::exec::Kernel {
            fn run<$($g: $bound),+>(frame: &$crate::exec::KernelFrame<'_>) {
                #[inline(always)]
                #[allow(clippy::too_many_arguments)]
                fn body<$($g: $bound),+>($($arg: $ty),*) $(-> $ret)? $body
                $crate::__kernel_run!(frame, body::<$($g),+>, $($arg: $ty),*);
            }
            fn signature<$($g: $bound),+>() -> $crate::exec::Signature {
                $crate::__kernel_signature!($($ty),* ; $($ret)?)
            }
            $crate::exec::Kernel::new(run::<$($g),+>, signature::<$($g),+>)
        }
    };
    ($(#[$meta:meta])* $vis:vis fn $name:ident ( $($arg:ident : $ty:ty),* $(,)? ) $(-> $ret:ty)? $body:block) => {
        $(#[$meta])*
        #[allow(non_upper_case_globals)]
        $vis const $name: $crate::exec::Kernel = {
            fn run(frame: &$crate::exec::KernelFrame<'_>) {
                #[inline(always)]
                #[allow(clippy::too_many_arguments)]
                fn body($($arg: $ty),*) $(-> $ret)? $body
                $crate::__kernel_run!(frame, body, $($arg: $ty),*);
            }
            fn signature() -> $crate::exec::Signature {
                $crate::__kernel_signature!($($ty),* ; $($ret)?)
            }
            $crate::exec::Kernel::new(run, signature)
        };
    };
}

/// The part of [`kernel!`](crate::kernel) that reads the parameters and
/// calls the body.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_run {
    ($frame:ident, $body:expr, $($arg:ident : $ty:ty),*) => {
        #[allow(unused_mut)]
        let mut cursor = $crate::exec::Cursor::default();
        $(
            let $arg = match <$ty as $crate::exec::FromFrame<'_>>::from_frame($frame, &mut cursor) {
                Ok(value) => value,
                Err(diag) => {
                    $frame.report(diag);
                    return;
                }
            };
        )*
        $crate::exec::IntoResults::into_results($body($($arg),*), $frame, &cursor);
    };
}

/// The part of [`kernel!`](crate::kernel) that describes the parameters
/// and the return type.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_signature {
    ($($ty:ty),* ; $($ret:ty)?) => {{
        #[allow(unused_mut)]
        let mut signature = $crate::exec::Signature::default();
        $(<$ty as $crate::exec::FromFrame<'_>>::describe(&mut signature);)*
        $(<$ret as $crate::exec::IntoResults>::describe(&mut signature);)?
        signature
    }};
}
