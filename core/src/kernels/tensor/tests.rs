//! Tests of the host tensor types beside their kernels (the kernels run in
//! `corpus/conformance/tensor_*.mlir`).

use super::coo::CooHostTensor;
use super::dense::{DenseHostTensor, byte_size};
use super::element::{Element, printf_e};
use super::shape::{PartialTensorShape, TensorShape};
use super::string::StringHostTensor;
use super::{HostTensor, MAX_TENSOR_BYTES};
use crate::format::DType;
use crate::runtime::{HostAllocator, MallocAllocator};
use std::sync::Arc;

fn dense_i32(dims: &[i64], values: &[i32]) -> DenseHostTensor {
    let mut data = vec![0u8; values.len() * 4];
    for (chunk, &v) in data.chunks_exact_mut(4).zip(values) {
        v.write(chunk);
    }
    DenseHostTensor::from_bytes(DType::I32, TensorShape(dims.to_vec()), &data, malloc()).unwrap()
}

fn malloc() -> Arc<dyn HostAllocator> {
    Arc::new(MallocAllocator)
}

#[test]
fn printf_e_matches_c() {
    assert_eq!(printf_e(1.0), "1.000000e+00");
    assert_eq!(printf_e(-0.0025), "-2.500000e-03");
    assert_eq!(printf_e(1.5e120), "1.500000e+120");
    assert_eq!(printf_e(0.0), "0.000000e+00");
    assert_eq!(printf_e(f64::NEG_INFINITY), "-inf");
}

#[test]
fn partial_shapes_name_what_is_unknown() {
    let p = PartialTensorShape(Some(vec![-1, 57, -1]));
    assert_eq!(
        p.to_shape().unwrap_err(),
        "Unknown dimensions at following indices = [0, 2]"
    );
    assert_eq!(
        PartialTensorShape(None).to_shape().unwrap_err(),
        "Unknown rank"
    );
    assert_eq!(
        PartialTensorShape(Some(vec![2, 3])).to_shape().unwrap(),
        TensorShape(vec![2, 3])
    );
}

#[test]
fn sizes_are_checked_before_allocating() {
    let huge = TensorShape(vec![i64::MAX, 2]);
    assert!(byte_size(DType::I32, &huge).is_err());
    let just_over = TensorShape(vec![(MAX_TENSOR_BYTES / 4 + 1) as i64]);
    assert!(byte_size(DType::I32, &just_over).is_err());
    assert!(byte_size(DType::Complex64, &TensorShape(vec![1])).is_err());
    assert!(DenseHostTensor::zeros(DType::F32, TensorShape(vec![3, 0]), malloc()).is_ok());
}

#[test]
fn coo_round_trip_keeps_the_dense_tensor() {
    let dense = dense_i32(&[3, 2], &[0, 1, 0, 0, 0, 2]);
    let coo = CooHostTensor::from_dense::<i32>(&dense).unwrap();
    // The reference's coordinates: see `CooHostTensor::from_dense`.
    assert_eq!(coo.indices(), &[0, 1, 1, 2]);
    let back = coo.to_dense::<i32>(malloc()).unwrap();
    assert_eq!(*back.read().unwrap(), *dense.read().unwrap());
    assert!(coo.equal::<i32>(&CooHostTensor::from_dense::<i32>(&back).unwrap()));
}

#[test]
fn coo_of_rank_zero_and_empty_tensors() {
    let scalar = dense_i32(&[], &[9]);
    let coo = CooHostTensor::from_dense::<i32>(&scalar).unwrap();
    assert!(coo.indices().is_empty());
    assert_eq!(
        coo.describe(),
        "CooHostTensor dtype = i32, shape = [], indices = [], values = [9]"
    );
    assert_eq!(
        *coo.to_dense::<i32>(malloc()).unwrap().read().unwrap(),
        *scalar.read().unwrap()
    );
    let empty = dense_i32(&[0, 4], &[]);
    let coo = CooHostTensor::from_dense::<i32>(&empty).unwrap();
    assert_eq!(coo.to_dense::<i32>(malloc()).unwrap().num_elements(), 0);
}

#[test]
fn printing_each_kind() {
    let dense = HostTensor::Dense(dense_i32(&[2], &[1, -2]));
    assert_eq!(
        dense.describe(),
        "DenseHostTensor dtype = i32, shape = [2], values = [1, -2]"
    );
    let strings =
        StringHostTensor::new(TensorShape(vec![2]), vec!["x".into(), "y z".into()]).unwrap();
    assert_eq!(
        HostTensor::String(strings).describe(),
        "StringHostTensor shape = [2], values = [\"x\", \"y z\"]"
    );
    assert!(StringHostTensor::new(TensorShape(vec![3]), vec![]).is_err());
    assert!(dense.coo().is_err());
}
