pragma solidity ^0.8.0;

// Twenty-four state-changing functions, more than initialSequences combines
// (maxCombined), and two views.
contract ManyWriters {
    uint256[24] public slots;
    uint256 public total;
    function w0(uint256 x) public { slots[0] = x; }
    function w1(uint256 x) public { slots[1] = x; }
    function w2(uint256 x) public { slots[2] = x; }
    function w3(uint256 x) public { slots[3] = x; }
    function w4(uint256 x) public { slots[4] = x; }
    function w5(uint256 x) public { slots[5] = x; }
    function w6(uint256 x) public { slots[6] = x; }
    function w7(uint256 x) public { slots[7] = x; }
    function w8(uint256 x) public { slots[8] = x; }
    function w9(uint256 x) public { slots[9] = x; }
    function w10(uint256 x) public { slots[10] = x; }
    function w11(uint256 x) public { slots[11] = x; }
    function w12(uint256 x) public { slots[12] = x; }
    function w13(uint256 x) public { slots[13] = x; }
    function w14(uint256 x) public { slots[14] = x; }
    function w15(uint256 x) public { slots[15] = x; }
    function w16(uint256 x) public { slots[16] = x; }
    function w17(uint256 x) public { slots[17] = x; }
    function w18(uint256 x) public { slots[18] = x; }
    function w19(uint256 x) public { slots[19] = x; }
    function w20(uint256 x) public { slots[20] = x; }
    function w21(uint256 x) public { slots[21] = x; }
    function w22(uint256 x) public { slots[22] = x; }
    function w23(uint256 x) public { slots[23] = x; }
    function sum() public view returns (uint256 s) { for (uint256 i = 0; i < 24; i++) s += slots[i]; }
}
