//! Names for the anonymous functions that hold the regions of kernels
//! (`tfrt.if`'s branches, `tfrt.repeat.i32`'s body): the kernel that owns
//! the region, its index in its function, and which region it is, as in
//! `tally tfrt.repeat.i32#9 body tfrt.if#4 then`. `bef-trace`'s exports and `befview` name
//! regions through here, so both say the same.

use super::Listing;

/// Owners followed from a region to a named function: deeper nesting is
/// shown from its innermost owners, after `…`. A damaged file can make
/// ownership loop; this bounds the walk.
pub const MAX_REGION_DEPTH: usize = 8;

/// What a kernel's regions are called, by the kernel's name and how many
/// regions it has: `then`/`else` for the branches of `tfrt.if` and
/// `tfrt.cond`, `case K` for `tfrt.case`, `body` for a kernel with one
/// region, `region K` otherwise.
pub fn region_role(kernel: &str, region: usize, regions: usize) -> String {
    match (kernel, region) {
        ("tfrt.if" | "tfrt.cond", 0) if regions == 2 => "then".to_owned(),
        ("tfrt.if" | "tfrt.cond", 1) if regions == 2 => "else".to_owned(),
        ("tfrt.case", k) => format!("case {k}"),
        (_, 0) if regions == 1 => "body".to_owned(),
        (_, k) => format!("region {k}"),
    }
}

/// Where a region's anonymous function sits: the function and kernel that
/// refer to it, and the region's position among the kernel's functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Owner {
    function: usize,
    kernel: usize,
    region: usize,
    regions: usize,
}

impl Listing<'_> {
    /// For each entry of the function index, the name of the region an
    /// anonymous function holds (`None` for named functions, and for
    /// anonymous ones no kernel refers to): the owning kernel's function,
    /// its name and index, and the region's role ([`region_role`]), from
    /// the outermost named function in: `tally
    /// tfrt.repeat.i32#9 body tfrt.if#4 then tfrt.if#3 else`. Without a leading `@`, as
    /// function names are stored. Reads every function once, the first
    /// time it is asked.
    pub fn region_names(&self) -> &[Option<String>] {
        self.region_names.get_or_init(|| self.find_region_names())
    }

    /// The name of function `index` as tools show it: its own name, the
    /// region it holds ([`Listing::region_names`]), or `None` when it has
    /// neither. Without a leading `@`.
    pub fn function_display_name(&self, index: usize) -> Option<&str> {
        let own = self.index_entry(index).map_or("", |e| e.name);
        if !own.is_empty() {
            return Some(own);
        }
        self.region_names().get(index)?.as_deref()
    }

    fn find_region_names(&self) -> Vec<Option<String>> {
        let count = self.function_count();
        let names: Vec<&str> = (0..count)
            .map(|i| self.index_entry(i).map_or("", |e| e.name))
            .collect();
        let mut owners: Vec<Option<Owner>> = vec![None; count];
        for function in self.functions() {
            for kernel in function.kernels().iter().filter(|k| !k.pseudo) {
                let regions = kernel.functions().len();
                for (region, callee) in kernel.functions().enumerate() {
                    let callee = callee as usize;
                    // The first owner counts: a valid file has one.
                    if names.get(callee) == Some(&"") && owners[callee].is_none() {
                        owners[callee] = Some(Owner {
                            function: function.index,
                            kernel: kernel.index,
                            region,
                            regions,
                        });
                    }
                }
            }
        }
        (0..count)
            .map(|f| {
                owners[f]?;
                Some(self.region_name(f, &names, &owners))
            })
            .collect()
    }

    /// See [`Listing::region_names`]: the owners of `function`, innermost
    /// first, up to a named function or [`MAX_REGION_DEPTH`].
    fn region_name(&self, function: usize, names: &[&str], owners: &[Option<Owner>]) -> String {
        let mut steps = Vec::new();
        let mut at = function;
        let mut outermost = None;
        while let Some(owner) = owners[at] {
            if steps.len() == MAX_REGION_DEPTH {
                break;
            }
            let kernel = self
                .function(owner.function)
                .and_then(|f| f.kernel(owner.kernel));
            let kernel_name = match kernel {
                Some(k) => k
                    .name
                    .map_or_else(|| format!("kernel#{}", k.code), str::to_owned),
                None => "?".to_owned(),
            };
            steps.push(format!(
                "{kernel_name}#{} {}",
                owner.kernel,
                region_role(&kernel_name, owner.region, owner.regions)
            ));
            at = owner.function;
            if !names[at].is_empty() {
                outermost = Some(names[at]);
                break;
            }
        }
        let mut name = outermost.unwrap_or("…").to_owned();
        for step in steps.iter().rev() {
            name.push(' ');
            name.push_str(step);
        }
        name
    }
}
