// A handwritten-digits classifier on the host runtime: a 64 -> 32 -> 10
// perceptron whose weights, and 360 images it was not trained on, are in
// digits.btf (written by train.py beside this file). `@digits` classifies
// the 360 images and prints the fraction it gets right; `@classify` takes
// one image, [1, 64] f32 with pixels in [0, 1], and returns its digit.
//
// Run from the repository's root (the BTF path is relative to it):
//   bef run corpus/models/digits/digits.mlir --functions digits

// The forward pass: images [N, 64] -> scores [N, 10]. The shapes of the two
// layers' outputs, [N, 32] and [N, 10], come with the batch.
func.func @forward(%images: !t.tensor, %hidden_shape: !ts.shape, %scores_shape: !ts.shape,
                   %ch0: !tfrt.chain) -> (!t.tensor, !tfrt.chain) {
  %path = "tfrt_test.get_string"() { value = "corpus/models/digits/digits.btf" } : () -> !tfrt.string
  %i0 = tfrt.constant.i32 0
  %i1 = tfrt.constant.i32 1
  %i2 = tfrt.constant.i32 2
  %i3 = tfrt.constant.i32 3
  %w1 = "btf.read_dense_tensor.f32.2"(%path, %i0) : (!tfrt.string, i32) -> !t.tensor
  %b1 = "btf.read_dense_tensor.f32.1"(%path, %i1) : (!tfrt.string, i32) -> !t.tensor
  %w2 = "btf.read_dense_tensor.f32.2"(%path, %i2) : (!tfrt.string, i32) -> !t.tensor
  %b2 = "btf.read_dense_tensor.f32.1"(%path, %i3) : (!tfrt.string, i32) -> !t.tensor
  %one = tfrt.constant.f32 1.0

  // hidden = relu(images × w1 + b1)
  %hidden = "tfrt_test.broadcast.f32.2"(%b1, %hidden_shape, %ch0) : (!t.tensor, !ts.shape, !tfrt.chain) -> !t.tensor
  %ch1 = "tfrt_test.matmul.f32.2"(%one, %images, %w1, %one, %hidden, %ch0) : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %ch2 = "tfrt_test.relu_inplace.f32"(%hidden, %ch1) : (!t.tensor, !tfrt.chain) -> !tfrt.chain

  // scores = hidden × w2 + b2
  %scores = "tfrt_test.broadcast.f32.2"(%b2, %scores_shape, %ch0) : (!t.tensor, !ts.shape, !tfrt.chain) -> !t.tensor
  %ch3 = "tfrt_test.matmul.f32.2"(%one, %hidden, %w2, %one, %scores, %ch2) : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  tfrt.return %scores, %ch3 : !t.tensor, !tfrt.chain
}

// The held-out images: prints the fraction classified right.
func.func @digits() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %path = "tfrt_test.get_string"() { value = "corpus/models/digits/digits.btf" } : () -> !tfrt.string
  %i4 = tfrt.constant.i32 4
  %i5 = tfrt.constant.i32 5
  %images = "btf.read_dense_tensor.f32.2"(%path, %i4) : (!tfrt.string, i32) -> !t.tensor
  %labels = "btf.read_dense_tensor.i32.1"(%path, %i5) : (!tfrt.string, i32) -> !t.tensor
  %hidden_shape = ts.build_shape [360 : i64, 32 : i64]
  %scores_shape = ts.build_shape [360 : i64, 10 : i64]
  %scores, %ch1 = tfrt.call @forward(%images, %hidden_shape, %scores_shape, %ch0)
      : (!t.tensor, !ts.shape, !ts.shape, !tfrt.chain) -> (!t.tensor, !tfrt.chain)
  %predicted = "tfrt_test.argmax.f32.2"(%scores, %ch1) : (!t.tensor, !tfrt.chain) -> !t.tensor

  // Where the prediction equals the label, 1.0; the mean is the accuracy.
  %ch2 = "tfrt_test.equal_inplace.i32"(%labels, %predicted, %ch1) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %correct = "tfrt_dht.create_uninitialized_tensor.f32.1"() { shape = [360 : i64] } : () -> !t.tensor
  %ch3 = "tfrt_test.cast.i32_to_f32"(%predicted, %correct, %ch2) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %accuracy = "tfrt_test.reduce_mean.f32.1"(%correct, %ch3) : (!t.tensor, !tfrt.chain) -> !t.tensor
  %ch4 = tfrt_dht.print_tensor %accuracy, %ch3
  tfrt.return %ch4 : !tfrt.chain
}

// The held-out images: the digit predicted for each, an i32 tensor of
// shape [360].
func.func @predictions() -> !t.tensor {
  %ch0 = tfrt.new.chain
  %path = "tfrt_test.get_string"() { value = "corpus/models/digits/digits.btf" } : () -> !tfrt.string
  %i4 = tfrt.constant.i32 4
  %images = "btf.read_dense_tensor.f32.2"(%path, %i4) : (!tfrt.string, i32) -> !t.tensor
  %hidden_shape = ts.build_shape [360 : i64, 32 : i64]
  %scores_shape = ts.build_shape [360 : i64, 10 : i64]
  %scores, %ch1 = tfrt.call @forward(%images, %hidden_shape, %scores_shape, %ch0)
      : (!t.tensor, !ts.shape, !ts.shape, !tfrt.chain) -> (!t.tensor, !tfrt.chain)
  %predicted = "tfrt_test.argmax.f32.2"(%scores, %ch1) : (!t.tensor, !tfrt.chain) -> !t.tensor
  tfrt.return %predicted : !t.tensor
}

// One image [1, 64] -> its digit, an i32 tensor of shape [1]. Its
// signature lets `bef run --call classify` take the image as JSON.
func.func @classify(%image: !t.tensor) -> !t.tensor attributes {iree.abi = "{\"a\":[[\"ndarray\",\"f32\",2,1,64]],\"r\":[[\"ndarray\",\"i32\",1,1]],\"v\":1}"} {
  %ch0 = tfrt.new.chain
  %hidden_shape = ts.build_shape [1 : i64, 32 : i64]
  %scores_shape = ts.build_shape [1 : i64, 10 : i64]
  %scores, %ch1 = tfrt.call @forward(%image, %hidden_shape, %scores_shape, %ch0)
      : (!t.tensor, !ts.shape, !ts.shape, !tfrt.chain) -> (!t.tensor, !tfrt.chain)
  %digit = "tfrt_test.argmax.f32.2"(%scores, %ch1) : (!t.tensor, !tfrt.chain) -> !t.tensor
  tfrt.return %digit : !t.tensor
}
