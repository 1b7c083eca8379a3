// Counts, for i in 1..=n, how many i are multiples of four, how many are
// even but not multiples of four, and how many are odd: a loop whose body
// branches twice deep, so that bef-trace and befview have nested regions
// to name (`tally tfrt.repeat.i32#… body tfrt.if#… then …`). Regions see
// only what is passed to them, so the constants travel with the counts.

func.func @tally(%n : i32) -> (i32, i32, i32) {
  %i = tfrt.constant.i32 0
  %by_four = tfrt.constant.i32 0
  %even = tfrt.constant.i32 0
  %odd = tfrt.constant.i32 0
  %zero = tfrt.constant.i32 0
  %one = tfrt.constant.i32 1
  %two = tfrt.constant.i32 2
  %four = tfrt.constant.i32 4

  %i_n, %by_four_n, %even_n, %odd_n, %zero_n, %one_n, %two_n, %four_n =
      tfrt.repeat.i32 %n, %i, %by_four, %even, %odd, %zero, %one, %two, %four :
      i32, i32, i32, i32, i32, i32, i32, i32 {
    %next = tfrt.add.i32 %i, %one
    %half, %parity = tfrt.div.i32 %next, %two
    %is_even = tfrt.equal.i32 %parity, %zero

    %by_four2, %even2, %odd2 = tfrt.if %is_even, %next, %by_four, %even, %odd, %zero, %one, %four :
        (i32, i32, i32, i32, i32, i32, i32) -> (i32, i32, i32) {
      %quarter, %rest = tfrt.div.i32 %next, %four
      %is_by_four = tfrt.equal.i32 %rest, %zero
      %by_four1, %even1 = tfrt.if %is_by_four, %by_four, %even, %one :
          (i32, i32, i32) -> (i32, i32) {
        %more = tfrt.add.i32 %by_four, %one
        tfrt.return %more, %even : i32, i32
      } else {
        %more = tfrt.add.i32 %even, %one
        tfrt.return %by_four, %more : i32, i32
      }
      tfrt.return %by_four1, %even1, %odd : i32, i32, i32
    } else {
      %more = tfrt.add.i32 %odd, %one
      tfrt.return %by_four, %even, %more : i32, i32, i32
    }

    tfrt.return %next, %by_four2, %even2, %odd2, %zero, %one, %two, %four :
        i32, i32, i32, i32, i32, i32, i32, i32
  }

  tfrt.return %by_four_n, %even_n, %odd_n : i32, i32, i32
}

func.func @tally_to_100() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %n = tfrt.constant.i32 100
  %by_four, %even, %odd = tfrt.call @tally(%n) : (i32) -> (i32, i32, i32)
  %ch1 = tfrt.print.i32 %by_four, %ch0
  %ch2 = tfrt.print.i32 %even, %ch1
  %ch3 = tfrt.print.i32 %odd, %ch2
  tfrt.return %ch3 : !tfrt.chain
}
