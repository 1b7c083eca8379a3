//! The first pass: collecting functions, types, attributes and kernels from
//! the IR (on two threads for large modules), with the checks the
//! reference translator makes.

use super::*;

/// Ops in the first block of each op's first region: about the size of
/// the functions `ops` define.
pub(super) fn body_ops(ops: &[Op]) -> impl Iterator<Item = usize> + '_ {
    ops.iter().map(|op| {
        op.regions
            .first()
            .and_then(|r| r.blocks.first())
            .map_or(0, |b| b.ops.len())
    })
}

/// The collection of the module. A large module's top-level ops are
/// collected in two halves on two threads and the halves merged, which
/// keeps every table in first-seen order (the second half's new entries
/// follow the first's). When a half reports an error, the module is
/// collected again on one thread, so that errors are the sequential ones.
pub(super) fn collect<'m>(
    module: &'m Module,
    options: TranslateOptions,
    value_region: &'m [Option<ParentRegion>],
    min_parallel: usize,
) -> Collector<'m> {
    let ops = &module.body().ops;
    let visit_all = |ops: &'m [Op]| {
        let mut collector = Collector::new(module, options, value_region);
        for op in ops {
            collector.visit(op, ParentRegion::Module, 0, false);
        }
        collector
    };
    let total: usize = body_ops(ops).sum();
    if total < min_parallel || ops.len() < 2 {
        return visit_all(ops);
    }
    let cut = format::encoder::halfway(body_ops(ops), total);
    let (first_ops, second_ops) = ops.split_at(cut);
    let (mut first, second) = std::thread::scope(|scope| {
        let second = scope.spawn(|| visit_all(second_ops));
        let first = visit_all(first_ops);
        let second = second
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (first, second)
    });
    if !first.errors.is_empty() || !second.errors.is_empty() {
        return visit_all(ops);
    }
    first.append(second);
    first
}

pub(super) fn region_key(region: &Region) -> RegionKey {
    region as *const Region as usize
}

/// Modules with fewer ops than this emit their bodies on one thread: a
/// second thread costs more than it saves on small modules.
pub(super) const MIN_PARALLEL_OPS: usize = 16 << 10;

/// MLIR uniques `true` and `1 : i1` to the same attribute; so must the
/// de-duplication. Borrows unless something changes.
pub(super) fn canonical(attr: &Attribute) -> std::borrow::Cow<'_, Attribute> {
    if has_i1_integer(attr) {
        std::borrow::Cow::Owned(canonical_owned(attr))
    } else {
        std::borrow::Cow::Borrowed(attr)
    }
}

pub(super) fn has_i1_integer(attr: &Attribute) -> bool {
    match attr {
        Attribute::Integer { ty, .. } => *ty == Type::i(1),
        Attribute::Array(elements) => elements.iter().any(has_i1_integer),
        _ => false,
    }
}

pub(super) fn canonical_owned(attr: &Attribute) -> Attribute {
    match attr {
        Attribute::Integer {
            value,
            ty:
                Type::Integer {
                    width: 1,
                    signedness: crate::ir::Signedness::Signless,
                },
        } => Attribute::Bool(*value & 1 == 1),
        Attribute::Array(elements) => {
            Attribute::Array(elements.iter().map(canonical_owned).collect())
        }
        other => other.clone(),
    }
}

impl<'m> Collector<'m> {
    /// Adds a converted splat of `bytes` to the module's total; true when
    /// the total is then over [`attributes::MAX_SPLAT_BYTES`].
    pub(super) fn count_splat(&mut self, bytes: u64) -> bool {
        self.splat_bytes = self.splat_bytes.saturating_add(bytes);
        self.splat_bytes > attributes::MAX_SPLAT_BYTES
    }

    pub(super) fn new(
        module: &'m Module,
        options: TranslateOptions,
        value_region: &'m [Option<ParentRegion>],
    ) -> Self {
        Collector {
            module,
            options,
            errors: Vec::new(),
            kernel_names: Vec::new(),
            kernel_ids: HashMap::default(),
            last_kernel: None,
            types: Vec::new(),
            type_ids: HashMap::default(),
            last_type: u32::MAX,
            functions: Vec::new(),
            named_functions: HashMap::default(),
            region_functions: HashMap::default(),
            attributes: Vec::new(),
            attribute_ids: HashMap::default(),
            splat_bytes: 0,
            unit_bytes: 0,
            extra_strings: Vec::new(),
            function_references: Vec::new(),
            value_region,
            value_type: vec![u32::MAX; module.values.len()],
        }
    }

    /// Takes in the collection of the ops that follow this one's, as if
    /// this collector had visited them too.
    pub(super) fn append(&mut self, other: Collector<'m>) {
        let mut kernels = vec![""; other.kernel_names.len()];
        for (&name, &id) in &other.kernel_ids {
            kernels[id as usize] = name;
        }
        for name in kernels {
            if !self.kernel_ids.contains_key(name) {
                self.kernel_ids.insert(name, self.kernel_names.len() as u32);
                self.kernel_names.push(name.to_string());
            }
        }
        let type_ids: Vec<u32> = other.types.iter().map(|ty| self.type_id(ty)).collect();
        for (mine, &theirs) in self.value_type.iter_mut().zip(&other.value_type) {
            if theirs != u32::MAX {
                *mine = type_ids[theirs as usize];
            }
        }
        let offset = self.functions.len() as u32;
        self.functions.extend(other.functions);
        for (name, index) in other.named_functions {
            let index = index + offset;
            if !name.is_empty() && self.named_functions.contains_key(name) {
                // Defined in both halves: the second definition is the
                // error, as when one thread collects.
                let location = self.functions[index as usize].owner.location.clone();
                self.error(&location, format!("redefinition of symbol named '{name}'"));
                continue;
            }
            self.named_functions.insert(name, index);
        }
        for (region, index) in other.region_functions {
            self.region_functions.insert(region, index + offset);
        }
        let mut attributes: Vec<_> = other.attribute_ids.into_iter().collect();
        attributes.sort_unstable_by_key(|&(_, id)| id);
        for ((key, _), converted) in attributes.into_iter().zip(other.attributes) {
            if !self.attribute_ids.contains_key(&key) {
                self.attribute_ids.insert(key, self.attributes.len() as u32);
                self.attributes.push(converted);
            }
        }
        self.extra_strings.extend(other.extra_strings);
        self.function_references.extend(other.function_references);
    }

    pub(super) fn error(&mut self, location: &Location, message: impl Into<String>) {
        self.errors.push(Diagnostic::new(location.clone(), message));
    }

    pub(super) fn add_type(&mut self, ty: &Type) -> u32 {
        // Runs of values of one type are common: compared before hashed.
        if let Some(last) = self.types.get(self.last_type as usize)
            && last.same_as(ty)
        {
            return self.last_type;
        }
        let id = self.type_id(ty);
        self.last_type = id;
        id
    }

    pub(super) fn type_id(&mut self, ty: &Type) -> u32 {
        if let Some(&id) = self.type_ids.get(ty) {
            return id;
        }
        let id = self.types.len() as u32;
        self.type_ids.insert(ty.clone(), id);
        self.types.push(ty.clone());
        id
    }

    pub(super) fn add_value_type(&mut self, value: ValueId) {
        let module = self.module;
        let id = self.add_type(&module.values[value.index()].ty);
        self.value_type[value.index()] = id;
    }

    /// Post-order visit of `op`: nested ops first, as MLIR's walk.
    /// `is_last`: whether `op` ends its block (a return must).
    pub(super) fn visit(&mut self, op: &'m Op, parent: ParentRegion, depth: usize, is_last: bool) {
        // Compiled at run time from the compilation units that name them.
        if compiled::is_compiled_module(op) {
            return;
        }
        if depth > MAX_REGION_DEPTH {
            self.error(
                &op.location,
                format!("regions nested deeper than {MAX_REGION_DEPTH} levels"),
            );
            return;
        }
        for region in &op.regions {
            for block in &region.blocks {
                for (i, nested) in block.ops.iter().enumerate() {
                    let last = i + 1 == block.ops.len();
                    self.visit(
                        nested,
                        ParentRegion::Region(region_key(region)),
                        depth + 1,
                        last,
                    );
                }
            }
        }
        if op.name == RETURN_OP {
            if !is_last {
                self.error(&op.location, "return op must be at the end of its block");
            }
            return;
        }
        let location_depth = format::location::written_depth(&op.location);
        if location_depth > MAX_NESTING {
            self.error(
                &op.location,
                format!(
                    "BEF files cannot encode this op's location: locations nested deeper \
                     than {MAX_NESTING} levels ({location_depth} levels), which BEF readers refuse"
                ),
            );
            return;
        }
        for &result in &op.results {
            self.add_value_type(result);
        }
        for &operand in &op.operands {
            if self.value_region.get(operand.index()).copied().flatten() != Some(parent) {
                self.error(
                    &op.location,
                    "BEF executor only supports references to kernels within the current region",
                );
                return;
            }
        }
        match Func::new(op) {
            Some(_) if parent != ParentRegion::Module => self.error(
                &op.location,
                "'func.func' op symbol's parent must have the SymbolTable trait",
            ),
            Some(func) => self.add_function(func),
            None => self.add_kernel(op),
        }
    }

    pub(super) fn add_function(&mut self, func: Func<'m>) {
        let op = func.op;
        // A second definition would shadow the first for callers while a
        // reader of the file sees the first (upstream MLIR's message).
        if self.named_functions.contains_key(func.name()) {
            self.error(
                &op.location,
                format!("redefinition of symbol named '{}'", func.name()),
            );
            return;
        }
        if func.kind() == FuncKind::Native {
            for ty in func.inputs().iter().chain(func.results()) {
                self.add_type(ty);
            }
            self.named_functions
                .insert(func.name(), self.functions.len() as u32);
            self.functions.push(FunctionEntry {
                name: func.name(),
                kind: FunctionKind::Native,
                owner: op,
                region_index: 0,
                region: None,
            });
            return;
        }
        let Some(body) = func.body() else {
            self.error(&op.location, "external functions are not allowed");
            return;
        };
        let Some(block) = body.blocks.first() else {
            return;
        };
        match block.ops.last() {
            Some(last) if last.name == RETURN_OP => {
                if func.kind() == FuncKind::Sync {
                    self.check_sync_return(last, &block.arguments);
                }
            }
            Some(last) => {
                self.error(&last.location, "all functions need to have a tfrt.return");
                return;
            }
            None => {
                self.error(&op.location, "all functions need to have a tfrt.return");
                return;
            }
        }
        let kind = match func.kind() {
            FuncKind::Sync => FunctionKind::Sync,
            _ => FunctionKind::Bef,
        };
        self.add_region_function(op, 0, body, func.name(), kind);
    }

    pub(super) fn check_sync_return(&mut self, ret: &Op, arguments: &[ValueId]) {
        let mut seen: Vec<ValueId> = Vec::new();
        for (index, operand) in ret.operands.iter().enumerate() {
            if arguments.contains(operand) {
                self.error(
                    &ret.location,
                    format!("return value {index} is an argument in a sync function"),
                );
                return;
            }
            if seen.contains(operand) {
                self.error(
                    &ret.location,
                    format!("return value {index} is duplicated in a sync function"),
                );
                return;
            }
            seen.push(*operand);
        }
    }

    pub(super) fn add_region_function(
        &mut self,
        owner: &'m Op,
        region_index: usize,
        region: &'m Region,
        name: &'m str,
        kind: FunctionKind,
    ) {
        let block = match region.blocks.as_slice() {
            [block] => block,
            _ => {
                self.error(
                    &owner.location,
                    "multi-block regions cannot be emitted to BEF files",
                );
                return;
            }
        };
        for &argument in &block.arguments {
            self.add_value_type(argument);
        }
        match block.ops.last() {
            Some(last) if last.name == RETURN_OP => {}
            Some(last) => {
                self.error(&last.location, "all functions need to have a tfrt.return");
                return;
            }
            None => {
                self.error(&owner.location, "all functions need to have a tfrt.return");
                return;
            }
        };
        let index = self.functions.len() as u32;
        self.region_functions.insert(region_key(region), index);
        self.named_functions.insert(name, index);
        self.functions.push(FunctionEntry {
            name,
            kind,
            owner,
            region_index,
            region: Some(region),
        });
    }

    pub(super) fn add_kernel(&mut self, op: &'m Op) {
        // Runs of one kernel are common: compared before hashed.
        if self.last_kernel != Some(op.name.as_str())
            && !self.kernel_ids.contains_key(op.name.as_str())
        {
            self.kernel_ids
                .insert(&op.name, self.kernel_names.len() as u32);
            self.kernel_names.push(op.name.clone());
        }
        self.last_kernel = Some(&op.name);
        for (name, value) in op.all_attributes() {
            if is_skipped_attribute(name) {
                continue;
            }
            if let Attribute::SymbolRef { nested, .. } = value
                && nested.is_empty()
            {
                self.function_references
                    .push((value, op.location.clone(), &op.name));
                continue;
            }
            // An array that starts with a symbol holds functions.
            let symbols = match value {
                Attribute::Array(elements)
                    if matches!(elements.first(), Some(Attribute::SymbolRef { .. })) =>
                {
                    Some(elements)
                }
                _ => None,
            };
            // An attribute seen before converted then: only its types
            // remain to record.
            let key = canonical(value);
            if symbols.is_none() && self.attribute_ids.contains_key(key.as_ref()) {
                if self.options.optional_sections {
                    self.add_attribute_types(value);
                }
                continue;
            }
            let splat = match value {
                Attribute::DenseElements(dense) => attributes::splat_bytes(dense),
                _ => None,
            };
            // Checked before converting, which allocates the expansion; a
            // splat too large by itself gets the per-attribute error below.
            if let Some(bytes) = splat
                && bytes <= attributes::MAX_DENSE_BYTES
                && self.count_splat(bytes)
            {
                if self.errors.is_empty() {
                    self.error(
                        &op.location,
                        format!(
                            "BEF files cannot encode the '{name}' attribute: with the dense splats before it, splats expand to more than the {} bytes the translator allows in one module",
                            attributes::MAX_SPLAT_BYTES
                        ),
                    );
                }
                return;
            }
            let converted = match (symbols, value) {
                (None, Attribute::SymbolRef { root, nested }) => {
                    match compiled::compilation_unit(self.module, root, nested) {
                        Some(unit) => {
                            self.unit_bytes =
                                self.unit_bytes.saturating_add(unit.serialized.len() as u64);
                            if self.unit_bytes > compiled::MAX_SERIALIZED_BYTES {
                                if self.errors.is_empty() {
                                    self.error(
                                        &op.location,
                                        format!(
                                            "BEF files cannot encode the '{name}' attribute: with the symbols before it, the compiled modules it names take more than the {} bytes the translator allows in one module",
                                            compiled::MAX_SERIALIZED_BYTES
                                        ),
                                    );
                                }
                                return;
                            }
                            Ok(Some(BefAttribute::CompilationUnit(unit)))
                        }
                        None => {
                            if self.errors.is_empty() {
                                let mut printed = format!("@{root}");
                                for n in nested {
                                    printed.push_str(&format!("::@{n}"));
                                }
                                self.error(&op.location, format!("function {printed} not defined"));
                            }
                            return;
                        }
                    }
                }
                (Some(elements), _) => elements
                    .iter()
                    .all(|e| matches!(e, Attribute::SymbolRef { nested, .. } if nested.is_empty()))
                    .then_some(None)
                    .ok_or(Unsupported::Kind),
                (None, _) => attributes::to_bef(value).map(Some),
            };
            let converted = match converted {
                Ok(converted) => converted,
                Err(reason) => {
                    if self.errors.is_empty() {
                        let mut message = format!("BEF files cannot encode the '{name}' attribute");
                        match reason {
                            Unsupported::TooLarge(bytes) => message.push_str(&format!(
                                ": its dense elements expand to {bytes} bytes, more than the {} the translator allows",
                                attributes::MAX_DENSE_BYTES
                            )),
                            Unsupported::TooDeep(depth) => message.push_str(&format!(
                                ": attributes nested deeper than {MAX_NESTING} levels ({depth} levels), which BEF readers refuse"
                            )),
                            Unsupported::Kind => {}
                        }
                        self.error(&op.location, message);
                    }
                    return;
                }
            };
            if self.options.optional_sections {
                if symbols.is_some() {
                    // Named in the Strings section although nothing refers
                    // to the name: the reference adds it before it notices
                    // the array holds functions.
                    self.extra_strings.push(name.clone());
                }
                self.add_attribute_types(value);
            }
            if let Some(elements) = symbols {
                for element in elements {
                    self.function_references
                        .push((element, op.location.clone(), &op.name));
                }
                continue;
            }
            let Some(converted) = converted else {
                continue;
            };
            if !self.attribute_ids.contains_key(key.as_ref()) {
                self.attribute_ids
                    .insert(key.into_owned(), self.attributes.len() as u32);
                self.attributes.push(converted);
            }
        }
        for (index, region) in op.regions.iter().enumerate() {
            self.add_region_function(op, index, region, "", FunctionKind::Bef);
        }
    }

    /// Integer and float types of an attribute (and of array elements), as
    /// the reference records them for the optional sections.
    pub(super) fn add_attribute_types(&mut self, attr: &Attribute) {
        match attr {
            Attribute::Bool(_) => {
                self.add_type(&Type::i(1));
            }
            Attribute::Integer { ty, .. } if ty.is_integer() => {
                self.add_type(ty);
            }
            Attribute::String { ty: Some(ty), .. } if ty.is_integer() => {
                self.add_type(ty);
            }
            Attribute::Float { ty, .. } => {
                self.add_type(ty);
            }
            Attribute::Array(elements) => {
                for element in elements {
                    self.add_attribute_types(element);
                }
            }
            _ => {}
        }
    }

    pub(super) fn check_function_references(&mut self) {
        if !self.errors.is_empty() {
            return;
        }
        for (attr, location, op_name) in std::mem::take(&mut self.function_references) {
            if let Attribute::SymbolRef { root, nested } = attr
                && (!self.named_functions.contains_key(root.as_str()) || root.is_empty())
            {
                // The reference verifies the ops that call functions before
                // it translates: their message is the verifier's.
                if matches!(
                    op_name,
                    "tfrt.call" | "tfrt.cond" | "tfrt.parallel_call.i32"
                ) {
                    self.error(
                        &location,
                        format!("'{op_name}' op '{root}' does not reference a valid function"),
                    );
                    return;
                }
                let mut printed = format!("@{root}");
                for n in nested {
                    printed.push_str(&format!("::@{n}"));
                }
                self.error(&location, format!("function {printed} not defined"));
                return;
            }
        }
    }

    pub(super) fn type_index(&self, ty: &Type) -> u32 {
        self.type_ids[ty]
    }

    /// The BEF model. Bodies are independent of each other: a large
    /// module's are emitted on two threads, the functions cut where half
    /// the ops are behind.
    pub(super) fn emit(self, min_parallel: usize) -> Result<FlatModule<'m>, Vec<Diagnostic>> {
        let ops_of = |entry: &FunctionEntry<'_>| {
            entry
                .region
                .and_then(|r| r.blocks.first())
                .map_or(0, |b| b.ops.len())
        };
        let total: usize = self.functions.iter().map(ops_of).sum();
        let cut = if total >= min_parallel {
            format::encoder::halfway(self.functions.iter().map(ops_of), total)
        } else {
            self.functions.len()
        };
        let (first, second) = self.functions.split_at(cut);
        let ((mut functions, mut errors), second) = std::thread::scope(|scope| {
            let second = (!second.is_empty()).then(|| scope.spawn(|| self.emit_functions(second)));
            let first = self.emit_functions(first);
            let second = second.map(|thread| {
                thread
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            });
            (first, second)
        });
        if let Some((more_functions, more_errors)) = second {
            functions.extend(more_functions);
            errors.extend(more_errors);
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let signatures = signature_entries(&self.functions)?;
        let mut attributes = self.attributes;
        compiled::number_units(&mut attributes);
        let mut extra_strings = self.extra_strings;
        extra_strings.sort();
        extra_strings.dedup();
        Ok(FlatModule {
            kernel_names: self.kernel_names,
            types: self.types.iter().map(Type::to_string).collect(),
            attributes,
            functions,
            optional_sections: self.options.optional_sections,
            extra_strings,
            signatures,
        })
    }

    /// The type indices of a function's arguments and results. A region's
    /// are its block's arguments and returned values (collection made sure
    /// it ends in a return), whose types collection recorded.
    pub(super) fn signature(&self, entry: &FunctionEntry<'m>) -> (Vec<u32>, Vec<u32>) {
        let types = |values: &[ValueId]| values.iter().map(|&v| self.value_type_index(v)).collect();
        match entry.region.and_then(|r| r.blocks.first()) {
            Some(block) => {
                let returned = block.ops.last().map_or(&[][..], |ret| &ret.operands);
                (types(&block.arguments), types(returned))
            }
            None => {
                let func = Func::new(entry.owner).expect("native functions are func ops");
                let types = |types: &[Type]| types.iter().map(|t| self.type_index(t)).collect();
                (types(func.inputs()), types(func.results()))
            }
        }
    }

    /// The type index of `value`'s type: recorded by collection for every
    /// value it saw, so rarely hashed.
    pub(super) fn value_type_index(&self, value: ValueId) -> u32 {
        match self.value_type[value.index()] {
            u32::MAX => self.type_index(&self.module.values[value.index()].ty),
            id => id,
        }
    }

    /// The model functions of `entries`, and the errors their bodies gave.
    pub(super) fn emit_functions(
        &self,
        entries: &[FunctionEntry<'m>],
    ) -> (Vec<FlatFunction<'m>>, Vec<Diagnostic>) {
        let mut emitter = FunctionEmitter {
            collector: self,
            register: vec![u32::MAX; self.module.values.len()],
            producer: vec![0; self.module.values.len()],
            errors: Vec::new(),
            functions: Vec::new(),
            users: Vec::new(),
            streams: streams::Scratch::default(),
        };
        let mut functions = Vec::with_capacity(entries.len());
        for entry in entries {
            let body = match entry.region {
                Some(region) => emitter.body(entry, region),
                None => None,
            };
            let (arg_types, result_types) = self.signature(entry);
            functions.push(FlatFunction {
                kind: entry.kind,
                name: entry.name,
                arg_types,
                result_types,
                body,
            });
        }
        (functions, emitter.errors)
    }
}

/// The signature metadata (`iree.abi`, `iree.abi.sip`) of the named
/// functions that carry some, checked.
pub(super) fn signature_entries(
    functions: &[FunctionEntry<'_>],
) -> Result<Vec<format::FunctionSignatures>, Vec<Diagnostic>> {
    let mut entries = Vec::new();
    let mut errors = Vec::new();
    for (index, entry) in functions.iter().enumerate() {
        if entry.name.is_empty() || entry.owner.name != crate::ir::FUNC_OP {
            continue;
        }
        let mut text = |name: &str| match entry.owner.attribute(name) {
            None => None,
            Some(attribute) => match attribute.as_str() {
                Some(bytes) => Some(bytes),
                None => {
                    errors.push(Diagnostic::new(
                        entry.owner.location.clone(),
                        format!("'func.func' op attribute '{name}' must be a string"),
                    ));
                    None
                }
            },
        };
        let reflection = text(abi::REFLECTION_ATTRIBUTE);
        let sip = text(abi::SIP_ATTRIBUTE);
        if reflection.is_none() && sip.is_none() {
            continue;
        }
        if let Err(e) = abi::check_metadata(reflection, sip) {
            errors.push(Diagnostic::new(
                entry.owner.location.clone(),
                format!("'func.func' op {e}"),
            ));
            continue;
        }
        let signatures = format::FunctionSignatures {
            function: index as u32,
            reflection: reflection.map(|r| String::from_utf8_lossy(r).into_owned()),
            sip: sip.map(<[u8]>::to_vec),
        };
        // What `bef verify` checks of the entry against the function's
        // types, so that no file is written that its verifier rejects.
        if let Err(e) = check_against_types(entry, &signatures) {
            errors.push(Diagnostic::new(
                entry.owner.location.clone(),
                format!("'func.func' op signature metadata does not match its type: {e}"),
            ));
            continue;
        }
        entries.push(signatures);
    }
    if errors.is_empty() {
        Ok(entries)
    } else {
        Err(errors)
    }
}

/// The function's Signatures entry read against its argument and result
/// types, as `abi::function::check_file` reads it from a file. Without the
/// `json` feature, reflection text cannot be read, here or by the
/// verifier, so only the SIP signature's leaves are checked.
fn check_against_types(
    entry: &FunctionEntry<'_>,
    signatures: &format::FunctionSignatures,
) -> Result<(), String> {
    let Some(func) = Func::new(entry.owner) else {
        return Ok(());
    };
    let names = |types: &[Type]| types.iter().map(Type::to_string).collect::<Vec<_>>();
    let (args, results) = (names(func.inputs()), names(func.results()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let results: Vec<&str> = results.iter().map(String::as_str).collect();
    #[cfg(not(feature = "json"))]
    let signatures = &format::FunctionSignatures {
        reflection: None,
        ..signatures.clone()
    };
    abi::function::call_signature(&args, &results, Some(signatures), abi::Mode::Strict).map(drop)
}

/// The region that defines each value of `module`.
pub(super) fn value_regions(module: &Module) -> Vec<Option<ParentRegion>> {
    let mut value_region = vec![None; module.values.len()];
    record_value_regions(&module.op, ParentRegion::Module, &mut value_region);
    value_region
}

pub(super) fn record_value_regions(
    root: &Op,
    parent: ParentRegion,
    out: &mut [Option<ParentRegion>],
) {
    let mut stack: Vec<(&Op, ParentRegion)> = vec![(root, parent)];
    while let Some((op, parent)) = stack.pop() {
        for result in &op.results {
            if let Some(slot) = out.get_mut(result.index()) {
                *slot = Some(parent);
            }
        }
        for region in &op.regions {
            let here = ParentRegion::Region(region_key(region));
            for block in &region.blocks {
                for argument in &block.arguments {
                    if let Some(slot) = out.get_mut(argument.index()) {
                        *slot = Some(here);
                    }
                }
                stack.extend(block.ops.iter().map(|nested| (nested, here)));
            }
        }
    }
}
