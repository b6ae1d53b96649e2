; IR level: clang's unoptimized IR for pass-ir.c (kept below the checks; made
; with clang -O2 -g -Xclang -disable-llvm-passes from:
;   int f(struct task_struct *t, struct local *l)   /* section kprobe/f */
;   { return t->real_parent->tgid + t->sched.stats[1] + t->start_words.lo
;            + l->b + t->in_iowait; }
; with Inputs/pass/vmlinux.h).  The plugin inserts clang's
; preserve_access_index intrinsics for the kernel types only, probe reads for
; the loads (kprobe), the bitfield sequence; then lowers them with the BPF
; target's CO-RE pass into the relocation globals.
; Typed-pointer IR: LLVM 14 only (16 and 19 are covered by the pass-*.c tests).
; REQUIRES: typed-pointers
; RUN: %opt -passes=relocore -relocore-run-bpf-passes=false -S %s | FileCheck %s
; RUN: %opt -passes=relocore -S %s | FileCheck %s --check-prefix=LOWERED
; RUN: %opt -passes=relocore -S %s | FileCheck %s --check-prefix=NOCALL
; RUN: %opt -passes=relocore -relocore-run-bpf-passes=false -relocore-natural-deref=false -S %s | FileCheck %s --check-prefix=DIRECT
; RUN: %opt -passes=relocore -relocore-run-bpf-passes=false -pass-remarks=relocore -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK
;
; CHECK-LABEL: define {{.*}} @f(
; CHECK: call %struct.task_struct** @llvm.preserve.struct.access.index.{{.*}}(%struct.task_struct* elementtype(%struct.task_struct) %{{[0-9]+}}, i32 4, i32 6)
; CHECK: call i64 inttoptr (i64 113 to i64 (i8*, i32, i8*)*)(i8* %{{[0-9]+}}, i32 8, i8* %{{[0-9]+}})
; CHECK: call i32* @llvm.preserve.struct.access.index.{{.*}}, i32 3, i32 5){{.*}}!llvm.preserve.access.index
; CHECK: call i64 inttoptr (i64 113 {{.*}} i32 4,
; CHECK: @llvm.preserve.struct.access.index.{{.*}}, i32 8, i32 10)
; CHECK: @llvm.preserve.struct.access.index.{{.*}}(%struct.sched_info* elementtype(%struct.sched_info) %{{[0-9]+}}, i32 0, i32 0)
; CHECK: @llvm.preserve.array.access.index.{{.*}}, i32 1, i32 1)
; CHECK: @llvm.preserve.struct.access.index.{{.*}}, i32 7, i32 9)
; CHECK: @llvm.preserve.union.access.index.{{.*}}(%union.anon* %{{[0-9]+}}, i32 1)
; CHECK: @llvm.preserve.struct.access.index.{{.*}}(%struct.anon{{.*}}, i32 0, i32 0)
; the program-local struct is left alone
; CHECK: getelementptr inbounds %struct.local, %struct.local* %{{[0-9]+}}, i32 0, i32 1
; CHECK: @llvm.bpf.preserve.field.info.{{.*}}, i64 1)
; CHECK: @llvm.bpf.preserve.field.info.{{.*}}, i64 0)
; CHECK: @llvm.bpf.preserve.field.info.{{.*}}, i64 4)
; CHECK: @llvm.bpf.preserve.field.info.{{.*}}, i64 3)
; CHECK: ashr i64
; CHECK: lshr i64
;
; LOWERED-DAG: @"llvm.task_struct:0:16$0:6" = external global
; LOWERED-DAG: @"llvm.task_struct:0:12$0:5" = external global
; LOWERED-DAG: @"llvm.task_struct:0:56$0:10:0:1" = external global
; LOWERED-DAG: @"llvm.task_struct:0:40$0:9:1:0" = external global
; LOWERED-DAG: @"llvm.task_struct:1:8$0:2" = external global
; LOWERED-DAG: @"llvm.task_struct:4:30$0:2" = external global
; NOCALL-NOT: call {{.*}}@llvm.preserve.
;
; DIRECT-NOT: inttoptr (i64 113
; DIRECT: @llvm.preserve.struct.access.index
;
; REMARK-DAG: remark: pass-ir.c:5:{{[0-9]+}}: relocated task_struct.real_parent (bpf_probe_read_kernel)
; REMARK-DAG: remark: pass-ir.c:5:{{[0-9]+}}: relocated task_struct.tgid (bpf_probe_read_kernel)
; REMARK-DAG: remark: pass-ir.c:5:{{[0-9]+}}: relocated task_struct.sched.stats[1] (bpf_probe_read_kernel)
; REMARK-DAG: remark: pass-ir.c:5:{{[0-9]+}}: relocated task_struct.start_words.lo (bpf_probe_read_kernel)
; REMARK-DAG: remark: pass-ir.c:5:{{[0-9]+}}: relocated bitfield read task_struct.in_iowait (bpf_probe_read_kernel)
; REMARK-NOT: local
; ModuleID = "pass-ir.c"
source_filename = "pass-ir.c"
target datalayout = "e-m:e-p:64:64-i64:64-i128:128-n32:64-S128"
target triple = "bpf"

%struct.task_struct = type { i32, i8, i32, i32, %struct.task_struct*, %struct.cred*, %struct.mm_struct*, %union.anon, %struct.sched_info, [16 x i8] }
%struct.cred = type { %struct.atomic_t, %struct.kuid_t, %struct.kuid_t }
%struct.atomic_t = type { i32 }
%struct.kuid_t = type { i32 }
%struct.mm_struct = type { %struct.anon, %struct.atomic_t }
%struct.anon = type { i64, i64, i64, i64 }
%union.anon = type { i64 }
%struct.sched_info = type { [4 x i64], i64 }
%struct.local = type { i32, i32 }
%struct.anon.0 = type { i32, i32 }

; Function Attrs: nounwind
define dso_local i32 @f(%struct.task_struct* noundef %0, %struct.local* noundef %1) #0 section "kprobe/f" !dbg !7 {
  %3 = alloca %struct.task_struct*, align 8
  %4 = alloca %struct.local*, align 8
  store %struct.task_struct* %0, %struct.task_struct** %3, align 8, !tbaa !86
  call void @llvm.dbg.declare(metadata %struct.task_struct** %3, metadata !84, metadata !DIExpression()), !dbg !90
  store %struct.local* %1, %struct.local** %4, align 8, !tbaa !86
  call void @llvm.dbg.declare(metadata %struct.local** %4, metadata !85, metadata !DIExpression()), !dbg !91
  %5 = load %struct.task_struct*, %struct.task_struct** %3, align 8, !dbg !92, !tbaa !86
  %6 = getelementptr inbounds %struct.task_struct, %struct.task_struct* %5, i32 0, i32 4, !dbg !93
  %7 = load %struct.task_struct*, %struct.task_struct** %6, align 8, !dbg !93, !tbaa !94
  %8 = getelementptr inbounds %struct.task_struct, %struct.task_struct* %7, i32 0, i32 3, !dbg !99
  %9 = load i32, i32* %8, align 4, !dbg !99, !tbaa !100
  %10 = sext i32 %9 to i64, !dbg !92
  %11 = load %struct.task_struct*, %struct.task_struct** %3, align 8, !dbg !101, !tbaa !86
  %12 = getelementptr inbounds %struct.task_struct, %struct.task_struct* %11, i32 0, i32 8, !dbg !102
  %13 = getelementptr inbounds %struct.sched_info, %struct.sched_info* %12, i32 0, i32 0, !dbg !103
  %14 = getelementptr inbounds [4 x i64], [4 x i64]* %13, i64 0, i64 1, !dbg !101
  %15 = load i64, i64* %14, align 8, !dbg !101, !tbaa !104
  %16 = add i64 %10, %15, !dbg !105
  %17 = load %struct.task_struct*, %struct.task_struct** %3, align 8, !dbg !106, !tbaa !86
  %18 = getelementptr inbounds %struct.task_struct, %struct.task_struct* %17, i32 0, i32 7, !dbg !107
  %19 = bitcast %union.anon* %18 to %struct.anon.0*, !dbg !107
  %20 = getelementptr inbounds %struct.anon.0, %struct.anon.0* %19, i32 0, i32 0, !dbg !108
  %21 = load i32, i32* %20, align 8, !dbg !108, !tbaa !109
  %22 = zext i32 %21 to i64, !dbg !106
  %23 = add i64 %16, %22, !dbg !110
  %24 = load %struct.local*, %struct.local** %4, align 8, !dbg !111, !tbaa !86
  %25 = getelementptr inbounds %struct.local, %struct.local* %24, i32 0, i32 1, !dbg !112
  %26 = load i32, i32* %25, align 4, !dbg !112, !tbaa !113
  %27 = sext i32 %26 to i64, !dbg !111
  %28 = add i64 %23, %27, !dbg !115
  %29 = load %struct.task_struct*, %struct.task_struct** %3, align 8, !dbg !116, !tbaa !86
  %30 = getelementptr inbounds %struct.task_struct, %struct.task_struct* %29, i32 0, i32 1, !dbg !117
  %31 = load i8, i8* %30, align 4, !dbg !117
  %32 = lshr i8 %31, 1, !dbg !117
  %33 = and i8 %32, 1, !dbg !117
  %34 = zext i8 %33 to i32, !dbg !117
  %35 = zext i32 %34 to i64, !dbg !116
  %36 = add i64 %28, %35, !dbg !118
  %37 = trunc i64 %36 to i32, !dbg !92
  ret i32 %37, !dbg !119
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.declare(metadata, metadata, metadata) #1

attributes #0 = { nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { nofree nosync nounwind readnone speculatable willreturn }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5}
!llvm.ident = !{!6}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "Debian clang version 14.0.6", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "pass-ir.c", directory: "/src", checksumkind: CSK_MD5, checksum: "2f29654cf04d25082ceea51ac951636d")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 7, !"frame-pointer", i32 2}
!6 = !{!"Debian clang version 14.0.6"}
!7 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 3, type: !8, scopeLine: 4, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !83)
!8 = !DISubroutineType(types: !9)
!9 = !{!10, !11, !78}
!10 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!11 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !12, size: 64)
!12 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "task_struct", file: !13, line: 24, size: 832, elements: !14)
!13 = !DIFile(filename: "/work/main/test/lit/Inputs/pass/vmlinux.h", directory: "", checksumkind: CSK_MD5, checksum: "f2c96537e786a6fb209b95616721a43b")
!14 = !{!15, !17, !18, !19, !20, !22, !23, !24, !41, !54, !65, !73}
!15 = !DIDerivedType(tag: DW_TAG_member, name: "__state", scope: !12, file: !13, line: 25, baseType: !16, size: 32)
!16 = !DIBasicType(name: "unsigned int", size: 32, encoding: DW_ATE_unsigned)
!17 = !DIDerivedType(tag: DW_TAG_member, name: "in_execve", scope: !12, file: !13, line: 26, baseType: !16, size: 1, offset: 32, flags: DIFlagBitField, extraData: i64 32)
!18 = !DIDerivedType(tag: DW_TAG_member, name: "in_iowait", scope: !12, file: !13, line: 27, baseType: !16, size: 1, offset: 33, flags: DIFlagBitField, extraData: i64 32)
!19 = !DIDerivedType(tag: DW_TAG_member, name: "prio_delta", scope: !12, file: !13, line: 28, baseType: !10, size: 5, offset: 34, flags: DIFlagBitField, extraData: i64 32)
!20 = !DIDerivedType(tag: DW_TAG_member, name: "pid", scope: !12, file: !13, line: 29, baseType: !21, size: 32, offset: 64)
!21 = !DIDerivedType(tag: DW_TAG_typedef, name: "s32", file: !13, line: 10, baseType: !10)
!22 = !DIDerivedType(tag: DW_TAG_member, name: "tgid", scope: !12, file: !13, line: 30, baseType: !21, size: 32, offset: 96)
!23 = !DIDerivedType(tag: DW_TAG_member, name: "real_parent", scope: !12, file: !13, line: 31, baseType: !11, size: 64, offset: 128)
!24 = !DIDerivedType(tag: DW_TAG_member, name: "real_cred", scope: !12, file: !13, line: 32, baseType: !25, size: 64, offset: 192)
!25 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !26, size: 64)
!26 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !27)
!27 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "cred", file: !13, line: 15, size: 96, elements: !28)
!28 = !{!29, !34, !40}
!29 = !DIDerivedType(tag: DW_TAG_member, name: "usage", scope: !27, file: !13, line: 15, baseType: !30, size: 32)
!30 = !DIDerivedType(tag: DW_TAG_typedef, name: "atomic_t", file: !13, line: 12, baseType: !31)
!31 = distinct !DICompositeType(tag: DW_TAG_structure_type, file: !13, line: 12, size: 32, elements: !32)
!32 = !{!33}
!33 = !DIDerivedType(tag: DW_TAG_member, name: "counter", scope: !31, file: !13, line: 12, baseType: !10, size: 32)
!34 = !DIDerivedType(tag: DW_TAG_member, name: "uid", scope: !27, file: !13, line: 15, baseType: !35, size: 32, offset: 32)
!35 = !DIDerivedType(tag: DW_TAG_typedef, name: "kuid_t", file: !13, line: 13, baseType: !36)
!36 = distinct !DICompositeType(tag: DW_TAG_structure_type, file: !13, line: 13, size: 32, elements: !37)
!37 = !{!38}
!38 = !DIDerivedType(tag: DW_TAG_member, name: "val", scope: !36, file: !13, line: 13, baseType: !39, size: 32)
!39 = !DIDerivedType(tag: DW_TAG_typedef, name: "u32", file: !13, line: 9, baseType: !16)
!40 = !DIDerivedType(tag: DW_TAG_member, name: "gid", scope: !27, file: !13, line: 15, baseType: !35, size: 32, offset: 64)
!41 = !DIDerivedType(tag: DW_TAG_member, name: "mm", scope: !12, file: !13, line: 33, baseType: !42, size: 64, offset: 256)
!42 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !43, size: 64)
!43 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "mm_struct", file: !13, line: 16, size: 320, elements: !44)
!44 = !{!45, !53}
!45 = !DIDerivedType(tag: DW_TAG_member, scope: !43, file: !13, line: 17, baseType: !46, size: 256)
!46 = distinct !DICompositeType(tag: DW_TAG_structure_type, scope: !43, file: !13, line: 17, size: 256, elements: !47)
!47 = !{!48, !50, !51, !52}
!48 = !DIDerivedType(tag: DW_TAG_member, name: "start_code", scope: !46, file: !13, line: 18, baseType: !49, size: 64)
!49 = !DIBasicType(name: "unsigned long", size: 64, encoding: DW_ATE_unsigned)
!50 = !DIDerivedType(tag: DW_TAG_member, name: "end_code", scope: !46, file: !13, line: 18, baseType: !49, size: 64, offset: 64)
!51 = !DIDerivedType(tag: DW_TAG_member, name: "arg_start", scope: !46, file: !13, line: 19, baseType: !49, size: 64, offset: 128)
!52 = !DIDerivedType(tag: DW_TAG_member, name: "arg_end", scope: !46, file: !13, line: 19, baseType: !49, size: 64, offset: 192)
!53 = !DIDerivedType(tag: DW_TAG_member, name: "mm_users", scope: !43, file: !13, line: 21, baseType: !30, size: 32, offset: 256)
!54 = !DIDerivedType(tag: DW_TAG_member, scope: !12, file: !13, line: 34, baseType: !55, size: 64, offset: 320)
!55 = distinct !DICompositeType(tag: DW_TAG_union_type, scope: !12, file: !13, line: 34, size: 64, elements: !56)
!56 = !{!57, !60}
!57 = !DIDerivedType(tag: DW_TAG_member, name: "start_time", scope: !55, file: !13, line: 35, baseType: !58, size: 64)
!58 = !DIDerivedType(tag: DW_TAG_typedef, name: "u64", file: !13, line: 11, baseType: !59)
!59 = !DIBasicType(name: "unsigned long long", size: 64, encoding: DW_ATE_unsigned)
!60 = !DIDerivedType(tag: DW_TAG_member, name: "start_words", scope: !55, file: !13, line: 36, baseType: !61, size: 64)
!61 = distinct !DICompositeType(tag: DW_TAG_structure_type, scope: !55, file: !13, line: 36, size: 64, elements: !62)
!62 = !{!63, !64}
!63 = !DIDerivedType(tag: DW_TAG_member, name: "lo", scope: !61, file: !13, line: 36, baseType: !39, size: 32)
!64 = !DIDerivedType(tag: DW_TAG_member, name: "hi", scope: !61, file: !13, line: 36, baseType: !39, size: 32, offset: 32)
!65 = !DIDerivedType(tag: DW_TAG_member, name: "sched", scope: !12, file: !13, line: 38, baseType: !66, size: 320, offset: 384)
!66 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "sched_info", file: !13, line: 23, size: 320, elements: !67)
!67 = !{!68, !72}
!68 = !DIDerivedType(tag: DW_TAG_member, name: "stats", scope: !66, file: !13, line: 23, baseType: !69, size: 256)
!69 = !DICompositeType(tag: DW_TAG_array_type, baseType: !58, size: 256, elements: !70)
!70 = !{!71}
!71 = !DISubrange(count: 4)
!72 = !DIDerivedType(tag: DW_TAG_member, name: "last", scope: !66, file: !13, line: 23, baseType: !58, size: 64, offset: 256)
!73 = !DIDerivedType(tag: DW_TAG_member, name: "comm", scope: !12, file: !13, line: 39, baseType: !74, size: 128, offset: 704)
!74 = !DICompositeType(tag: DW_TAG_array_type, baseType: !75, size: 128, elements: !76)
!75 = !DIBasicType(name: "char", size: 8, encoding: DW_ATE_signed_char)
!76 = !{!77}
!77 = !DISubrange(count: 16)
!78 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !79, size: 64)
!79 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "local", file: !1, line: 2, size: 64, elements: !80)
!80 = !{!81, !82}
!81 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !79, file: !1, line: 2, baseType: !10, size: 32)
!82 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !79, file: !1, line: 2, baseType: !10, size: 32, offset: 32)
!83 = !{!84, !85}
!84 = !DILocalVariable(name: "t", arg: 1, scope: !7, file: !1, line: 3, type: !11)
!85 = !DILocalVariable(name: "l", arg: 2, scope: !7, file: !1, line: 3, type: !78)
!86 = !{!87, !87, i64 0}
!87 = !{!"any pointer", !88, i64 0}
!88 = !{!"omnipotent char", !89, i64 0}
!89 = !{!"Simple C/C++ TBAA"}
!90 = !DILocation(line: 3, column: 64, scope: !7)
!91 = !DILocation(line: 3, column: 81, scope: !7)
!92 = !DILocation(line: 5, column: 9, scope: !7)
!93 = !DILocation(line: 5, column: 12, scope: !7)
!94 = !{!95, !87, i64 16}
!95 = !{!"task_struct", !96, i64 0, !96, i64 4, !96, i64 4, !96, i64 4, !96, i64 8, !96, i64 12, !87, i64 16, !87, i64 24, !87, i64 32, !88, i64 40, !97, i64 48, !88, i64 88}
!96 = !{!"int", !88, i64 0}
!97 = !{!"sched_info", !88, i64 0, !98, i64 32}
!98 = !{!"long long", !88, i64 0}
!99 = !DILocation(line: 5, column: 25, scope: !7)
!100 = !{!95, !96, i64 12}
!101 = !DILocation(line: 5, column: 32, scope: !7)
!102 = !DILocation(line: 5, column: 35, scope: !7)
!103 = !DILocation(line: 5, column: 41, scope: !7)
!104 = !{!98, !98, i64 0}
!105 = !DILocation(line: 5, column: 30, scope: !7)
!106 = !DILocation(line: 5, column: 52, scope: !7)
!107 = !DILocation(line: 5, column: 55, scope: !7)
!108 = !DILocation(line: 5, column: 67, scope: !7)
!109 = !{!88, !88, i64 0}
!110 = !DILocation(line: 5, column: 50, scope: !7)
!111 = !DILocation(line: 5, column: 72, scope: !7)
!112 = !DILocation(line: 5, column: 75, scope: !7)
!113 = !{!114, !96, i64 4}
!114 = !{!"local", !96, i64 0, !96, i64 4}
!115 = !DILocation(line: 5, column: 70, scope: !7)
!116 = !DILocation(line: 5, column: 79, scope: !7)
!117 = !DILocation(line: 5, column: 82, scope: !7)
!118 = !DILocation(line: 5, column: 77, scope: !7)
!119 = !DILocation(line: 5, column: 2, scope: !7)
