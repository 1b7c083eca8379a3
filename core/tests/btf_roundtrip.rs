//! BTF write → read: any list of dense and COO tensors of every dtype and
//! rank 0 to 4 (empty and 1-element dimensions included) reads back as
//! written, in place; and every cut of the file is an error, not a panic.

use bef::btf::{self, BtfDType, BtfFile, Payload, TensorToWrite};
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Tensor {
    Dense {
        dtype: BtfDType,
        dims: Vec<u64>,
        data: Vec<u8>,
    },
    Coo {
        dtype: BtfDType,
        dims: Vec<u64>,
        indices: Vec<u64>,
        values: Vec<u8>,
    },
}

fn dtype() -> impl Strategy<Value = BtfDType> {
    proptest::sample::select(BtfDType::ALL.to_vec())
}

fn dims() -> impl Strategy<Value = Vec<u64>> {
    proptest::collection::vec(prop_oneof![Just(0u64), Just(1u64), 2u64..6], 0..=4)
}

fn dense() -> impl Strategy<Value = Tensor> {
    (dtype(), dims()).prop_flat_map(|(dtype, dims)| {
        let len = dims.iter().product::<u64>() as usize * dtype.size();
        proptest::collection::vec(any::<u8>(), len).prop_map(move |data| Tensor::Dense {
            dtype,
            dims: dims.clone(),
            data,
        })
    })
}

fn coo() -> impl Strategy<Value = Tensor> {
    (
        dtype(),
        proptest::collection::vec(1u64..6, 1..=4),
        0usize..5,
    )
        .prop_flat_map(|(dtype, dims, count)| {
            let coordinates: Vec<_> = (0..count)
                .flat_map(|_| dims.iter().map(|&d| 0..d).collect::<Vec<_>>())
                .collect();
            let values = proptest::collection::vec(any::<u8>(), count * dtype.size());
            (coordinates, values).prop_map(move |(indices, values)| Tensor::Coo {
                dtype,
                dims: dims.clone(),
                indices,
                values,
            })
        })
}

fn to_write(t: &Tensor) -> TensorToWrite<'_> {
    match t {
        Tensor::Dense { dtype, dims, data } => TensorToWrite::Dense {
            dtype: *dtype,
            dims,
            data,
        },
        Tensor::Coo {
            dtype,
            dims,
            indices,
            values,
        } => TensorToWrite::Coo {
            dtype: *dtype,
            dims,
            indices,
            values,
        },
    }
}

/// Where `part`, a slice of `bytes`, ends in it.
fn end_in(bytes: &[u8], part: &[u8]) -> usize {
    part.as_ptr() as usize - bytes.as_ptr() as usize + part.len()
}

proptest! {
    #[test]
    fn written_tensors_read_back(tensors in proptest::collection::vec(prop_oneof![dense(), coo()], 0..6)) {
        let list: Vec<TensorToWrite<'_>> = tensors.iter().map(to_write).collect();
        let bytes = btf::write(&list).unwrap();
        prop_assert_eq!(bytes.len() % 8, 0);
        let file = BtfFile::parse(&bytes).unwrap();
        prop_assert_eq!(file.len(), tensors.len() as u64);
        for (i, tensor) in tensors.iter().enumerate() {
            let record = file.record(i as u64).unwrap();
            prop_assert_eq!(record.offset % 8, 0);
            match (tensor, &record.payload) {
                (Tensor::Dense { dtype, dims, data }, Payload::Dense { data: read, offset }) => {
                    prop_assert_eq!(record.dtype, *dtype);
                    prop_assert_eq!(&record.dims, dims);
                    prop_assert_eq!(*read, &data[..]);
                    // In place: the slice is the file's own bytes.
                    prop_assert_eq!(read.as_ptr(), bytes[*offset as usize..].as_ptr());
                }
                (Tensor::Coo { dtype, dims, indices, values }, Payload::Coo { indices: i, values: v, count, .. }) => {
                    prop_assert_eq!(record.dtype, *dtype);
                    prop_assert_eq!(&record.dims, dims);
                    prop_assert_eq!(*count as usize, indices.len() / dims.len());
                    let coordinates: Vec<u64> = i.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect();
                    prop_assert_eq!(&coordinates, indices);
                    prop_assert_eq!(*v, &values[..]);
                }
                _ => prop_assert!(false, "layout changed: {:?} read as {:?}", tensor, record),
            }
        }
        // Every cut before the end of the last record's contents (the
        // padding after it may go) leaves a record that fails to read.
        let content_end = match file.records().last() {
            Some(Ok(record)) => match record.payload {
                Payload::Dense { data, .. } => end_in(&bytes, data),
                Payload::Coo { values, .. } => end_in(&bytes, values),
            },
            _ => 8,
        };
        for len in (0..content_end).step_by(7) {
            if let Ok(cut) = BtfFile::parse(&bytes[..len]) {
                prop_assert!(cut.records().any(|r| r.is_err()));
            }
        }
    }
}
